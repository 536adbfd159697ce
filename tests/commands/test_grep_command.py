"""`pitui grep`: scopes as `pitui list`'s, JSON keys, one safe line per entry."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import orjson
import pytest

from pitui.cli import main
from pitui.commands.support.json_output import to_json, write_json_array
from pitui.core.catalog.scan.discovery import project_dir

KEYS = ["path", "sessionId", "id", "role", "timestamp", "snippet", "line", "store"]


def _own_folder(agent: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project folder (the cwd) with one session that says hostile things."""
    cwd = agent.parent / "proj"
    cwd.mkdir()
    folder = project_dir(agent / "sessions", str(cwd))
    folder.mkdir()
    header = {
        "type": "session",
        "version": 3,
        "id": "mine",
        "timestamp": "2026-05-01T00:00:00Z",
        "cwd": str(cwd),
    }
    said = {"type": "message", "id": "m1", "parentId": None, "timestamp": "2026-05-01T00:00:01Z",
            "message": {"role": "user", "content": "parser \x1b[31mred\x07 \u202eevil\nנקודה"}}  # fmt: skip
    (folder / "a\x1b[2Jb.jsonl").write_bytes(
        orjson.dumps(header) + b"\n" + orjson.dumps(said) + b"\n"
    )
    monkeypatch.chdir(cwd)
    return folder


def test_this_folder_by_default_text_is_inert(agent: Path, monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    folder = _own_folder(agent, monkeypatch)
    assert main(["grep", "parser"]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1
    assert out.startswith(f"{folder}/a␛[2Jb.jsonl:2  m1  user ")
    assert "\x1b" not in out and "\x07" not in out and "\u202e" not in out and "נקודה" in out
    assert main(["grep", "parser", "--json"]) == 0
    (hit,) = json.loads(capsys.readouterr().out)
    assert list(hit) == KEYS and hit["sessionId"] == "mine" and hit["line"] == 2


def test_all_json_newest_first_and_limit(agent: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["grep", "--all", "--json", "parser"]) == 0
    hits = json.loads(capsys.readouterr().out)
    assert len({h["path"] for h in hits}) > 2
    assert main(["list", "--all", "--json"]) == 0
    order = [s["path"] for s in json.loads(capsys.readouterr().out)]
    ranks = [order.index(h["path"]) for h in hits]
    assert ranks == sorted(ranks)
    assert main(["grep", "--all", "--json", "--limit", "3", "parser"]) == 0
    assert json.loads(capsys.readouterr().out) == hits[:3]
    assert main(["grep", "--all", "--json", "--limit", "9" * 30, "parser"]) == 0  # > sys.maxsize
    assert json.loads(capsys.readouterr().out) == hits
    assert main(["grep", "--all", "--json", "--role", "user", "parser"]) == 0
    assert {h["role"] for h in json.loads(capsys.readouterr().out)} == {"user"}


def test_session_dir(agent: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    flat = tmp_path / "flat"
    flat.mkdir()
    for path in list((agent / "sessions").rglob("*.jsonl"))[:4]:
        (flat / path.name).write_bytes(path.read_bytes())
    assert main(["grep", "--all", "--json", "--session-dir", str(flat), "the"]) == 0
    hits = json.loads(capsys.readouterr().out)
    assert hits and all(Path(h["path"]).parent == flat for h in hits)


def test_exit_status_as_grep(agent: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["grep", "--all", "parser"]) == 0
    assert main(["grep", "--all", "zzqx-found-nowhere"]) == 1
    captured = capsys.readouterr()
    assert "zzqx" not in captured.out and "no sessions in this folder" not in captured.err


def test_bad_queries(agent: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["grep", "  "]) == 2
    assert "pitui: grep needs a query" in capsys.readouterr().err
    assert main(["grep", "--all", "x after:2025-13-01"]) == 2
    assert "after:" in capsys.readouterr().err
    assert main(["grep", "--all", "--json", "re:("]) == 2  # as grep: 2 for an error
    captured = capsys.readouterr()
    assert json.loads(captured.out) == [] and "regular expression" in captured.err
    with pytest.raises(SystemExit):
        main(["grep", "--all", "--limit", "0", "x"])


def test_archived_sessions_are_searched_with_archived_or_in_archive(  # type: ignore[no-untyped-def]
    agent: Path, monkeypatch, capsys
) -> None:
    folder = _own_folder(agent, monkeypatch)
    monkeypatch.setenv("PITUI_ARCHIVE_DIR", str(agent.parent / "archive"))
    session = next(folder.iterdir())
    os.utime(session, (1e9, 1e9))  # not a file being written: archive moves it
    assert main(["archive", "--yes", str(session)]) == 0
    capsys.readouterr()
    assert main(["grep", "parser", "--json"]) == 1  # no longer in this folder's sessions
    captured = capsys.readouterr()
    assert json.loads(captured.out) == []
    assert "no sessions in this folder (--all searches every folder's)" in captured.err
    for args in (
        ["grep", "parser", "--archived", "--json"],
        ["grep", "in:archive parser", "--json"],
    ):
        assert main(args) == 0
        (hit,) = json.loads(capsys.readouterr().out)
        assert hit["sessionId"] == "mine" and "archive" in hit["path"]


def test_json_is_written_as_it_comes_and_reads_as_one_array(
    agent: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """grep --json writes each hit as it is found; the whole is the array JSON.stringify
    writes (two spaces, lone surrogates and C1 controls escaped)."""

    assert main(["grep", "--all", "--json", "the"]) == 0
    out = capsys.readouterr().out
    assert out == to_json(json.loads(out)) + "\n"
    odd = [{"a": "x\ud800y", "b": [1, {"c": None}]}, {}, {"d": "\x85"}]
    for items in ([], odd[:1], odd):
        written = io.StringIO()
        assert write_json_array(written, iter(items)) == len(items)
        assert written.getvalue() == to_json(items) + "\n"


@pytest.mark.parametrize("no_cache", [[], ["--no-cache"]])
def test_file_token_searches_only_the_sessions_that_wrote_the_path(
    project: Path, capsys: pytest.CaptureFixture[str], no_cache: list[str]
) -> None:
    """`file:PATH` selects sessions as in `pitui list`: only the entries of the sessions
    with a successful write or edit of PATH are searched."""
    from file_edits import EditingSession, sessions_folder

    writer = EditingSession(project, seed=1)
    writer.builder.user("profiler notes")
    writer.write("src/calc.py", "x = 1\n")
    writer.builder.user("profiler again")
    wrote = writer.save(sessions_folder(project))
    reader = EditingSession(project, seed=2, ms=writer.builder.ms + 1_000)
    reader.builder.user("profiler elsewhere")
    reader.call("read", {"path": "src/calc.py"})
    reader.save(sessions_folder(project))

    assert main(["grep", "profiler", "--json", *no_cache]) == 0
    assert len({h["path"] for h in json.loads(capsys.readouterr().out)}) == 2
    for query in ("file:src/calc.py profiler", f"profiler file:{project}/src"):
        assert main(["grep", query, "--json", *no_cache]) == 0
        hits = json.loads(capsys.readouterr().out)
        assert {h["path"] for h in hits} == {str(wrote)} and len(hits) == 2
    assert main(["list", "file:src/calc.py", "--json", *no_cache]) == 0
    assert [s["path"] for s in json.loads(capsys.readouterr().out)] == [str(wrote)]
    assert main(["grep", "file:/nonexist profiler", "--all", *no_cache]) == 1
    assert capsys.readouterr().out == ""
    assert main(["grep", "file:/nonexist profiler", *no_cache]) == 1
    said = capsys.readouterr()
    assert said.out == "" and "no sessions in this folder" not in said.err  # it has two


def test_json_snippets_hold_the_text_as_list_json_does(  # type: ignore[no-untyped-def]
    agent: Path, monkeypatch, capsys
) -> None:
    """A lone surrogate in a snippet is written as JSON.stringify writes it (`\\ud800`), as
    `pitui list --json` writes the first message; it was U+FFFD (the terminal's form), as
    controls were their pictures. The JSON stays inert: every control escaped."""
    cwd = agent.parent / "proj"
    cwd.mkdir()
    folder = project_dir(agent / "sessions", str(cwd))
    folder.mkdir()
    header = b'{"type":"session","version":3,"id":"s","timestamp":"2026-05-01T00:00:00Z","cwd":%s}'
    text = '"lone \\ud800 and \\udfff, pair \\ud83d\\ude00 \\u001b[31m \\u202eend\\u0085"'
    said = (
        b'{"type":"message","id":"m1","parentId":null,"timestamp":"2026-05-01T00:00:01Z",'
        b'"message":{"role":"user","content":%s}}' % text.encode()
    )
    (folder / "s.jsonl").write_bytes(header % orjson.dumps(str(cwd)) + b"\n" + said + b"\n")
    monkeypatch.chdir(cwd)
    assert main(["grep", "lone", "--json"]) == 0
    out = capsys.readouterr().out
    assert '"snippet": "lone \\ud800 and \\udfff, pair 😀 \\u001b[31m \\u202eend\\u0085"' in out
    assert out.replace("\n", "").isprintable()
    (hit,) = json.loads(out)
    assert main(["list", "--json"]) == 0
    (listed,) = json.loads(capsys.readouterr().out)
    assert hit["snippet"] == listed["firstMessage"] == json.loads(text)
    assert main(["grep", "lone"]) == 0
    assert "lone \ufffd and \ufffd, pair 😀 ␛[31m <U+202E>end" in capsys.readouterr().out
