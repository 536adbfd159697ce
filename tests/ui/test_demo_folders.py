"""`pitui --demo` in a real terminal keeps everything in its own folder: a pin, a tag, the
trash, its settings and temporary files, and a pi resuming a demo session; the folder is gone
once pitui (and that pi) ends. The user's folders (HOME, the XDG folders, TMPDIR, all moved
into a temporary folder here) are left as they were."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest
from pty_terminal import REPO, Pty, ended

SIZE = (120, 36)


def user_env(tmp_path: Path) -> dict[str, str]:
    """A user's environment, every folder of theirs inside `tmp_path`; no pitui variable."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("TEXTUAL", "PYTEST", "PITUI_", "XDG_", "PI_"))
    }
    env.pop("COLUMNS", None), env.pop("LINES", None)
    folders = {
        "HOME": "home",
        "XDG_DATA_HOME": "home/.local/share",
        "XDG_CONFIG_HOME": "home/.config",
        "XDG_CACHE_HOME": "home/.cache",
        "XDG_STATE_HOME": "home/.local/state",
        "TMPDIR": "tmp",
    }
    for name, folder in folders.items():
        (tmp_path / folder).mkdir(parents=True, exist_ok=True)
        env[name] = str(tmp_path / folder)
    env.update(TERM="xterm-256color", PYTHONPATH=str(REPO), LANG="C.UTF-8")
    return env


def files_under(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*")}


def demo_folder(tmp_path: Path) -> Path:
    [folder] = (tmp_path / "tmp").glob("pitui-demo-*")
    return folder


@pytest.mark.slow
def test_the_demo_pins_tags_and_trashes_inside_its_own_folder_and_removes_it(
    tmp_path: Path,
) -> None:
    env = user_env(tmp_path)
    home_before = files_under(tmp_path / "home")
    with ended(Pty(env, args=("--demo",), size=SIZE)) as terminal:
        terminal.wait_for(
            lambda: " shown" in terminal.screen_text() and not terminal.shows(" 0 shown")
        )
        demo = demo_folder(tmp_path)
        terminal.send(b"\x1bp")  # Alt+P: pin the highlighted session (one listed: no longer "0")
        terminal.wait_for(lambda: any((demo / "data").rglob("userdata.sqlite3")), 10)
        terminal.send(b"\x1bt")  # Alt+T: its tags
        terminal.wait_to_show("Tags of this session")
        terminal.type("demo-tag\r")
        terminal.wait_for(lambda: not terminal.shows("Tags of this session"), 10)
        trashed_before = len(list((demo / "data").rglob("Trash/files/*.jsonl")))
        terminal.send(b"\x04")  # Ctrl+D: trash it
        terminal.wait_to_show("Move this session to the trash?")
        terminal.send(b"\r")
        terminal.wait_to_show("Moved to the trash")
        trashed = list((demo / "data").rglob("Trash/files/*.jsonl"))
        assert len(trashed) == trashed_before + 1, files_under(demo)
        # nothing written anywhere but the demo's folder
        assert files_under(tmp_path / "home") == home_before
        assert [p.name for p in (tmp_path / "tmp").iterdir()] == [demo.name]
        terminal.quit()
    assert not list((tmp_path / "tmp").iterdir())  # the demo's folder removed
    assert files_under(tmp_path / "home") == home_before


@pytest.mark.slow
def test_a_demo_session_resumed_in_pi_is_there_while_pi_runs_then_removed(
    tmp_path: Path,
) -> None:
    env = user_env(tmp_path)
    record = tmp_path / "pi-record.txt"
    pi = tmp_path / "bin" / "pi"
    pi.parent.mkdir()
    # as pi does: append to the session it resumes (which recreated a removed folder)
    pi.write_text(
        "#!/bin/sh\n"
        'for a; do last="$a"; done\n'
        f'if [ -f "$last" ]; then echo there > "{record}"; else echo missing > "{record}"; fi\n'
        'echo "{{}}" >> "$last"\n'
        'echo "HOME=$HOME" >> ' + f'"{record}"\n'
    )
    pi.chmod(0o755)
    env["PATH"] = f"{pi.parent}{os.pathsep}{env['PATH']}"
    home_before = files_under(tmp_path / "home")
    with ended(Pty(env, args=("--demo",), size=SIZE)) as terminal:
        terminal.wait_to_show(" shown")
        terminal.send(b"\x0f")  # Ctrl+O: resume in pi
        terminal.wait_to_show("The session's folder is missing")  # the demo's cwd is not here
        terminal.send(b"\r")  # Run here
        assert terminal.process.wait(timeout=30) == 0
    lines = record.read_text().splitlines()
    assert lines == ["there", f"HOME={tmp_path / 'home'}"]  # pi in the user's own HOME
    assert not list((tmp_path / "tmp").iterdir())
    assert files_under(tmp_path / "home") == home_before


@pytest.mark.slow
@pytest.mark.parametrize("ending", ["SIGTERM", "SIGHUP"])
def test_the_demo_folder_goes_when_pitui_is_killed_or_its_terminal_closed(
    tmp_path: Path, ending: str
) -> None:
    """Closing the terminal window (SIGHUP) or `kill` (SIGTERM) ended pitui at once, and each
    time its demo folder, about 0.7 MB, stayed in TMPDIR. pitui now quits as on Ctrl+Q."""
    with ended(Pty(user_env(tmp_path), args=("--demo",), size=SIZE)) as terminal:
        terminal.wait_to_show(" shown")
        assert demo_folder(tmp_path).is_dir()
        terminal.process.send_signal(getattr(signal, ending))
        assert terminal.process.wait(timeout=30) == 0
    assert not list((tmp_path / "tmp").iterdir())
