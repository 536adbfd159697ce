"""`pitui log` and `pitui blame` on sessions Pi 1.6.0 itself wrote while its own write and edit
tools changed a real file (`fixtures/pi_edits_files.mjs`, over pi-ai's faux provider): every
argument shape Pi's edit tool normalises, a failed edit, relative, absolute and @-prefixed
paths, a call on a branch left later, a second session."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from oracle import oracle_available, oracle_dir, oracle_unavailable_reason

from pitui.cli import main

pytestmark = pytest.mark.oracle
SCRIPT = Path(__file__).parents[1] / "fixtures" / "pi_edits_files.mjs"


@pytest.fixture(scope="module")
def pi_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    node = oracle_available()
    if node is None:
        pytest.skip(f"Node/Pi oracle cannot be installed: {oracle_unavailable_reason()}")
    root = tmp_path_factory.mktemp("pi-edits")
    done = subprocess.run(
        [node, str(SCRIPT), str(oracle_dir()), str(root)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return root


def _call_entries(sessions: Path) -> dict[str, str]:
    """The entry id of each assistant message holding a write or edit call, by the call's
    arguments as JSON text."""
    found = {}
    for path in sorted(sessions.glob("*.jsonl")):
        for line in path.read_text().splitlines():
            entry = json.loads(line)
            message = entry.get("message") or {}
            for block in message.get("content") or [] if message.get("role") == "assistant" else []:
                if block.get("type") == "toolCall" and block["name"] in ("write", "edit"):
                    found[json.dumps(block["arguments"])] = entry["id"]
    return found


def _entry_with(calls: dict[str, str], text: str) -> str:
    (entry,) = [entry for arguments, entry in calls.items() if text in arguments]
    return entry


def test_log_and_blame_of_what_pi_did(
    pi_root: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project, sessions = pi_root / "project", pi_root / "sessions"
    monkeypatch.setenv("PITUI_CACHE_DIR", str(pi_root / "cache"))
    monkeypatch.chdir(project)
    calls = _call_entries(sessions)
    assert len(calls) == 9
    scope = ["--session-dir", str(sessions)]
    assert main(["log", "src/calc.py", "--json", *scope]) == 0
    logged = json.loads(capsys.readouterr().out)
    failed = _entry_with(calls, "not in the file")
    assert failed not in [c["id"] for c in logged] and len(logged) == 8
    left = _entry_with(calls, "# sum")
    assert [c["id"] for c in logged if c["branch"] == "abandoned"] == [left]
    assert {c["file"] for c in logged} == {str(project / "src" / "calc.py")}
    assert logged[-1]["tool"] == "write" and logged[0]["id"] == _entry_with(calls, "def mul")
    assert (logged[-2]["added"], logged[-2]["removed"]) == (3, 2)  # from Pi's details.patch

    with (project / "src" / "calc.py").open("a") as file:
        file.write("# by hand\n")
    assert main(["blame", "src/calc.py", "--json", *scope]) == 0
    blamed = [(line["text"], line["id"]) for line in json.loads(capsys.readouterr().out)]
    write = _entry_with(calls, '"content"')
    mul = _entry_with(calls, "def mul")
    assert blamed == [
        ("def plus(a, b):", _entry_with(calls, "def plus")),  # one object, @src/calc.py
        ("    total = b + a", _entry_with(calls, "total = b + a")),  # edits as a JSON string
        ("    return total  # sum", left),  # the branch left later still changed the file
        ("", write),
        ("", write),
        ("def minus(a, b):", _entry_with(calls, "def minus")),
        ("    return b - a", _entry_with(calls, '"oldText": "    return a - b"')),  # legacy
        ("", mul),
        ("", mul),
        ("def mul(a, b):", mul),
        ("    return a * b", mul),
        ("# by hand", None),
    ]
