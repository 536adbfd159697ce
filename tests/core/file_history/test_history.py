"""A file's history across sessions: which sessions are read, newest first, forks' copies
counted once."""

from __future__ import annotations

import copy
from pathlib import Path

from file_edits import EditingSession

from pitui.core.catalog.summary import SessionSummary
from pitui.core.file_history.history import file_history, related, related_to, targets_of
from pitui.core.userdata.store import CwdMove
from pitui.demo.builder import BASE_MS, make_header, session_path, write_session

HOUR = 3_600_000


def _summary(path: Path, cwd: str, created_ms: int | None) -> SessionSummary:
    return SessionSummary(str(path), "id", cwd, None, None, created_ms, created_ms, 1, "hi")


def test_a_fork_copy_is_counted_once_in_the_older_session(tmp_path: Path) -> None:
    one = EditingSession("/proj")
    done = one.edit("a.txt", "x", "y")
    original = one.save(tmp_path)
    fork_header = make_header(one.rng, "/proj", BASE_MS + HOUR, parent_session=str(original))
    fork = write_session(
        session_path(tmp_path, fork_header), fork_header, copy.deepcopy(one.builder.entries)
    )
    two = EditingSession("/proj", seed=2, ms=BASE_MS + 2 * HOUR)
    later = two.edit("a.txt", "y", "z")
    other = two.save(tmp_path)
    summaries = [
        _summary(fork, "/proj", BASE_MS + HOUR),
        _summary(other, "/proj", BASE_MS + 2 * HOUR),
        _summary(original, "/proj", BASE_MS),
    ]
    history = file_history(summaries, ("/proj/a.txt",))
    assert [(c.entry_id, c.session_path) for c in history.changes] == [
        (later, str(other)),
        (done, str(original)),
    ]


def test_sessions_that_could_name_the_file(tmp_path: Path) -> None:
    made = {cwd: _summary(tmp_path / f"{i}.jsonl", cwd, 0) for i, cwd in enumerate(
        ["/", "/proj", "/proj/src", "/proj/src/deep", "/project", "/other", ""]
    )}  # fmt: skip
    assert [s.cwd for s in made.values() if related(s, ("/proj/src",))] == [
        "/",
        "/proj",
        "/proj/src",
        "/proj/src/deep",
    ]


def test_unreadable_sessions_are_reported_not_raised(tmp_path: Path) -> None:
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"type":"message"}\n')
    history = file_history([_summary(broken, "/proj", 0)], ("/proj/a.txt",))
    assert history.changes == [] and len(history.unreadable) == 1


def test_targets_are_absolute(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    base = tmp_path.resolve()
    (base / "real").mkdir()
    (base / "link").symlink_to(base / "real")
    monkeypatch.chdir(base)
    assert targets_of("link/f.txt") == (str(base / "link/f.txt"), str(base / "real/f.txt"))
    assert targets_of("real/./f.txt") == (str(base / "real/f.txt"),)


def test_a_files_scope_is_its_folder_a_folders_itself(tmp_path: Path) -> None:
    """Sessions run anywhere under the folder a file is in could name it relatively
    (`../app.py`); a folder's scope stays the folder itself."""
    (tmp_path / "proj" / "src").mkdir(parents=True)
    base = str(tmp_path)
    cwds = ["/", base, f"{base}/proj", f"{base}/proj/sub/deep", f"{base}/proj/src", f"{base}/p"]
    made = [_summary(tmp_path / f"{i}.jsonl", cwd, 0) for i, cwd in enumerate(cwds)]
    file = related_to((f"{base}/proj/app.py",))
    assert [s.cwd for s in made if file(s)] == cwds[:5]
    folder = related_to((f"{base}/proj/src",))  # an existing folder
    assert [s.cwd for s in made if folder(s)] == ["/", base, f"{base}/proj", f"{base}/proj/src"]


def test_the_scope_holds_the_folder_a_file_was_in_before_a_move(tmp_path: Path) -> None:
    """A session left at the old folder (`pitui move` skipped it) wrote the file there."""
    moves = {"s1": [CwdMove("/p/old", "/p/new", 1.0)]}
    cwds = ["/p/new", "/p/old", "/p/old/sub", "/p/older"]
    made = [_summary(tmp_path / f"{i}.jsonl", cwd, 0) for i, cwd in enumerate(cwds)]
    scope = related_to(("/p/new/app.py",), moves)
    assert [s.cwd for s in made if scope(s)] == cwds[:3]
    assert [s.cwd for s in made if related_to(("/p/new/app.py",))(s)] == ["/p/new"]
