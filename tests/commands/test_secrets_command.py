"""`pitui secrets`: the sessions, entries and kinds of credentials found (values masked), in
the scope of `pitui list`, with a cache that notices changed files."""

from __future__ import annotations

import json
import os
import random
import string
from pathlib import Path
from typing import Any

import orjson
import pytest
from entry_builders import header, message_entry, msg

from pitui.cli import main
from pitui.core.catalog.scan.discovery import project_dir
from pitui.core.secrets import find_secrets
from pitui.core.secrets.found_cache import FILE_NAME, SecretsCache

_rng = random.Random(3)
GITHUB = "ghp_" + "".join(_rng.choice(string.ascii_letters + string.digits) for _ in range(36))
PASSWORD = "correct-horse-battery"


def write(path: Path, lines: list[dict[str, Any]], tail: bytes = b"") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"".join(orjson.dumps(line) + b"\n" for line in lines) + tail)
    return path


def leaky(session_id: str, cwd: str) -> list[dict[str, Any]]:
    call = {"type": "toolCall", "id": "call_1", "name": "bash",
            "arguments": {"command": "login", "password": PASSWORD}}  # fmt: skip
    result = {"role": "toolResult", "toolCallId": "call_1", "toolName": "bash",
              "content": [{"type": "text", "text": f"GH_TOKEN={GITHUB}\nok"}]}  # fmt: skip
    return [
        header(session_id, cwd),
        msg("u1", None, text="log in please", n=1),
        message_entry("a1", "u1", {"role": "assistant", "content": [call]}, n=2),
        message_entry("t1", "a1", result, n=3),
    ]


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    agent = tmp_path / "agent"
    sessions = agent / "sessions"
    here, there = tmp_path / "here", tmp_path / "there"
    here.mkdir()
    write(project_dir(sessions, str(here)) / "leaky.jsonl", leaky("leaky", str(here)))
    clean = [header("clean", str(here)), msg("u1", None, text="nothing secret here", n=1)]
    write(project_dir(sessions, str(here)) / "clean.jsonl", clean)
    write(project_dir(sessions, str(there)) / "other.jsonl", leaky("other", str(there)))
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(agent))
    monkeypatch.setenv("PITUI_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("PI_CODING_AGENT_SESSION_DIR", raising=False)
    monkeypatch.chdir(here)
    return sessions


def secrets_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert main(["secrets", "--json", *args]) == 0
    return json.loads(capsys.readouterr().out)


def test_this_folder_entries_kinds_masked(store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = secrets_json(capsys)
    assert [Path(s["path"]).name for s in data["sessions"]] == ["leaky.jsonl"]
    hits = data["sessions"][0]["secrets"]
    assert {(h["id"], h["line"]) for h in hits} == {("a1", 3), ("t1", 4)}
    github_kind = find_secrets(GITHUB)[0].kind  # the detector's own name for it
    assert {h["kind"] for h in hits} == {"named-secret", github_kind}
    assert data["sessions"][0]["kinds"] == {"named-secret": 1, github_kind: 1}
    out = json.dumps(data)
    assert GITHUB not in out and PASSWORD not in out and GITHUB[:12] not in out
    assert f"({len(GITHUB)} chars)" in out


def test_all_and_text_output(store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = secrets_json(capsys, "--all")
    assert sorted(Path(s["path"]).name for s in data["sessions"]) == ["leaky.jsonl", "other.jsonl"]
    assert main(["secrets", "--all"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("4 credentials in 2 sessions (values masked)")
    assert GITHUB not in out and PASSWORD not in out and "clean.jsonl" not in out


def test_cache_notices_a_changed_file(store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    clean = next(store.rglob("clean.jsonl"))
    assert [Path(s["path"]).name for s in secrets_json(capsys)["sessions"]] == ["leaky.jsonl"]
    cache = SecretsCache(Path(os.environ["PITUI_CACHE_DIR"]))
    assert cache.cached(str(clean), clean.stat()) == {}  # known clean: not read next time
    with clean.open("ab") as fh:  # pi appends a reply quoting a key
        fh.write(orjson.dumps(msg("a9", "u1", "assistant", f"use {GITHUB}", n=9)) + b"\n")
    names = [Path(s["path"]).name for s in secrets_json(capsys)["sessions"]]
    assert sorted(names) == ["clean.jsonl", "leaky.jsonl"]
    assert (Path(os.environ["PITUI_CACHE_DIR"]) / FILE_NAME).is_file()


def test_partial_line_and_hostile_ids(store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = next(store.rglob("clean.jsonl")).parent
    lines = [header("h", str(Path.cwd())), msg("\x1b[31mid\x07", None, text=f"key {GITHUB}")]
    partial = orjson.dumps(msg("p1", None, text=f"another {GITHUB}"))[:-3]
    write(folder / "hostile.jsonl", lines, tail=partial)
    assert main(["secrets"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out
    data = secrets_json(capsys)
    hostile = next(s for s in data["sessions"] if s["path"].endswith("hostile.jsonl"))
    assert [h["line"] for h in hostile["secrets"]] == [2]  # the line being written waits


def test_nothing_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:  # type: ignore[no-untyped-def]
    empty = tmp_path / "flat"
    write(empty / "a.jsonl", [header("a", str(tmp_path)), msg("u1", None, text="hello")])
    monkeypatch.setenv("PITUI_CACHE_DIR", str(tmp_path / "cache"))
    assert main(["secrets", "--session-dir", str(empty)]) == 0
    assert capsys.readouterr().out == "No credentials found.\n"


def test_cache_reads_only_appended_lines(
    store: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from pitui.core.secrets import found_cache

    leaky = str(next(store.rglob("leaky.jsonl")))
    calls: list[tuple[int, int]] = []
    real = found_cache.scan_session

    def spy(path: str, offset: int = 0, first_line: int = 1) -> Any:
        calls.append((offset, first_line))
        return real(path, offset, first_line)

    monkeypatch.setattr(found_cache, "scan_session", spy)
    cache = SecretsCache(tmp_path / "c")
    assert cache.kinds_of([leaky]) == {leaky: {"named-secret": 1, find_secrets(GITHUB)[0].kind: 1}}
    size = os.path.getsize(leaky)
    with open(leaky, "ab") as fh:  # one more key, then a line still being written
        fh.write(
            orjson.dumps(
                msg(
                    "u2",
                    "t1",
                    text="jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abcdefghijKLMNOPQRSTuvwxyz0123456789ab",
                )
            )
            + b"\n"
        )
        fh.write(b'{"type":"message","id":"half"')
    kinds = cache.kinds_of([leaky])[leaky]
    assert calls[-1] == (size, 5)  # from the end of line 4 on
    assert sum(kinds.values()) == 3 and kinds["named-secret"] == 1
    assert cache.kinds_of([leaky])[leaky] == kinds and len(calls) == 2  # unchanged: not read
    # rewritten (not appended to): read again whole, the old findings gone
    write(Path(leaky), [header("leaky"), msg("u1", None, text="x" * (size + 200))])
    assert cache.kinds_of([leaky]) == {}
    assert calls[-1] == (0, 1)


def test_same_fields_as_the_export_redacts() -> None:
    from pitui.core.export.redactor import NAMING_KEYS
    from pitui.core.secrets.scan import KEPT_KEYS

    assert KEPT_KEYS == NAMING_KEYS


def test_finds_what_the_export_redacts(tmp_path: Path) -> None:
    from pitui.core.export.redactor import Redactor
    from pitui.core.secrets.scan import scan_session

    jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abcdefghijKLMNOPQRSTuvwxyz0123456789ab"
    lines = [*leaky("s", "/p"), msg("u2", "t1", text=f"also {jwt} and apiKey={GITHUB[4:]}", n=5)]
    path = write(tmp_path / "s.jsonl", lines)
    redactor = Redactor(True)
    for raw in lines:
        redactor.entry(raw)
    assert scan_session(str(path)).kinds == redactor.counts


def test_a_session_dir_read_for_this_folder_says_what_it_left_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    shared = tmp_path / "shared"
    write(shared / "here.jsonl", [header("a", str(tmp_path)), msg("u1", None, text="hello")])
    write(shared / "other.jsonl", [header("b", "/elsewhere"), msg("u1", None, text=GITHUB)])
    monkeypatch.setenv("PITUI_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)
    assert main(["secrets", "--session-dir", str(shared)]) == 0
    said = capsys.readouterr()
    assert said.out == "No credentials found.\n"
    assert "left out 1 session with credentials of the session folder" in said.err
    assert "(--all includes them)" in said.err
    assert main(["secrets", "--all", "--session-dir", str(shared)]) == 0
    said = capsys.readouterr()
    assert "other.jsonl" in said.out and said.err == ""


def test_a_secret_in_the_project_folder_name_is_masked_in_the_paths_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    sessions = tmp_path / "agent" / "sessions"
    clone = tmp_path / GITHUB  # a folder named by a token (a clone into it)
    clone.mkdir()
    long_id = "5ec5ec5e-0000-4000-8000-000000000001"
    lines = [header(long_id, str(clone)), msg("u1", None, text=f"token {GITHUB}", n=1)]
    write(project_dir(sessions, str(clone)) / "s.jsonl", lines)
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(tmp_path / "agent"))
    monkeypatch.setenv("PITUI_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.chdir(clone)
    assert main(["secrets"]) == 0
    text = capsys.readouterr().out
    assert GITHUB not in text and "[REDACTED:github]" in text
    header_row = next(line for line in text.splitlines() if "ENTRY" in line)
    hit_row = next(line for line in text.splitlines() if "github" in line and "ghp_" in line)
    assert header_row.index("KIND") == hit_row.index("github")  # columns kept
    assert main(["secrets", "--json"]) == 0
    data = capsys.readouterr().out
    assert GITHUB not in data and "[REDACTED:github]" in data
