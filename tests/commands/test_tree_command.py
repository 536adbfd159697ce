"""`pitui tree`: Pi-like rows, filters, --json fields, errors."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from entry_builders import msg, ts

from pitui.cli import main
from pitui.demo.generate import generate_varied_session, write_session

HEADER = {"type": "session", "version": 3, "id": "s", "timestamp": "2025-01-01T00:00:00.000Z"}


def write(path: Path, *entries: dict[str, Any]) -> Path:
    path.write_text("".join(json.dumps(e) + "\n" for e in [{**HEADER, "cwd": "/p"}, *entries]))
    return path


@pytest.fixture
def branched(tmp_path: Path) -> Path:
    return write(
        tmp_path / "s.jsonl",
        msg("r", None, "user", "root", 1),
        msg("a", "r", "assistant", "answer", 2),
        msg("b1", "a", "user", "first try", 3),
        msg("b2", "a", "user", "second\x1b[31m try\x1b]52;c;eA==\x07", 4),
        {"type": "label", "id": "l", "parentId": "b2", "timestamp": ts(5), "targetId": "r",
         "label": "start"},
        {"type": "usage", "id": "u", "parentId": "l", "timestamp": ts(6)},
    )  # fmt: skip


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["tree", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_rows_like_pi(branched: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, str(branched), "--no-ids")
    assert code == 0
    assert out.splitlines() == [
        "• [start] user: root",
        "• assistant: answer",
        "├─ • user: second␛[31m try␛]52;c;eA==␇",
        "└─ user: first try",
    ]
    assert "\x1b" not in out and "\x07" not in out


def test_each_row_starts_with_its_entry_id_for_fork_label_and_context_edit(
    branched: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, str(branched))
    assert code == 0
    assert out.splitlines() == [
        "r   • [start] user: root",
        "a   • assistant: answer",
        "b2  ├─ • user: second␛[31m try␛]52;c;eA==␇",
        "b1  └─ user: first try",
    ]
    entry_id = out.splitlines()[3].split()[0]
    assert main(["label", str(branched), entry_id, "picked", "--force"]) == 0
    assert json.loads(branched.read_text().splitlines()[-1])["targetId"] == "b1"


def test_filters(branched: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, str(branched), "--filter", "all")
    assert "[label: start]" in out and "usage" not in out
    _, out, _ = run(capsys, str(branched), "--filter", "user-only")
    assert len(out.splitlines()) == 3
    _, out, _ = run(capsys, str(branched), "--filter", "labeled-only", "--no-ids")
    assert out.splitlines() == ["• [start] user: root"]


def test_json_every_entry(branched: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, str(branched), "--json")
    assert code == 0
    data = json.loads(out)
    assert [d["id"] for d in data] == ["r", "a", "b1", "b2", "l", "u"]  # usage included
    assert set(data[0]) >= {"id", "parentId", "type", "role", "label", "depth", "active"}
    by_id = {d["id"]: d for d in data}
    assert by_id["r"]["label"] == "start" and by_id["r"]["role"] == "user"
    assert by_id["b1"]["parentId"] == "a" and by_id["l"]["type"] == "label"
    assert [by_id[i]["active"] for i in ("r", "a", "b1", "b2", "l", "u")] == [
        True, True, False, True, True, True,
    ]  # fmt: skip
    assert by_id["b1"]["depth"] == 1 and by_id["r"]["depth"] == 0
    assert "\x1b" not in out


def test_json_varied_session(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    header, entries = generate_varied_session(random.Random(3), "/p")
    path = write_session(tmp_path / "v.jsonl", header, entries)
    code, out, _ = run(capsys, str(path), "--json")
    assert code == 0 and len(json.loads(out)) == len(entries)


def test_not_a_session(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("hello\n")
    code, out, err = run(capsys, str(path))
    assert code == 1 and out == ""
    assert err.startswith("pitui: ") and err.count("\n") == 1


def test_a_line_shows_at_most_forty_levels_of_guide(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each branch point adds a level to everything below it: 20,000 of them (retries at each
    step) printed gigabytes and ran for minutes. Deeper rows show "…" and their last levels."""
    entries, parent = [], None
    for n in range(300):  # a main line, each step with a second child
        entries += [
            msg(f"m{n}", parent, "user", f"step {n}", n),
            msg(f"x{n}", parent, "user", "retry", n),
        ]
        parent = f"m{n}"
    code, out, _ = run(capsys, str(write(tmp_path / "b.jsonl", *entries)), "--no-ids")
    lines = out.splitlines()
    assert code == 0 and len(lines) == 600
    assert max(len(line) for line in lines) < 40 * 3 + 40
    assert any(line.startswith("…") for line in lines) and "step 299" in out
    shallow = [line for line in lines if line.endswith(": step 3")]
    assert shallow and not shallow[0].startswith("…")  # near the top: as Pi draws it
