"""--redact: no planted secret survives in any format; ordinary text does."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pitui.core.export.export import export_session
from pitui.core.export.options import ExportOptions
from pitui.core.session.session import Session
from pitui.demo.generate import write_session
from tests.core.secrets.planted import ORDINARY, PLANTED

CASES = [
    (kind, secret, text.format(secret)) for kind, items in PLANTED.items() for secret, text in items
]


def planted_session(tmp_path: Path) -> Session:
    """Each planted secret in a different place: user text, a tool call, a tool result,
    assistant text, a label; ordinary text next to them."""
    entries: list[dict[str, Any]] = []
    parent = None
    for n, (_, _, text) in enumerate(CASES):
        eid = f"e{n:03d}"
        where = n % 4
        if where == 0:
            message: dict[str, Any] = {"role": "user", "content": text}
        elif where == 1:
            message = {
                "role": "assistant",
                "content": [
                    {
                        "type": "toolCall",
                        "id": f"t{n}",
                        "name": "bash",
                        "arguments": {"command": text},
                    }
                ],
            }
        elif where == 2:
            message = {
                "role": "toolResult",
                "toolCallId": f"t{n}",
                "toolName": "read",
                "content": [{"type": "text", "text": text}],
                "isError": False,
            }
        else:
            message = {"role": "assistant", "content": [{"type": "text", "text": text}]}
        entries.append(
            {
                "type": "message",
                "id": eid,
                "parentId": parent,
                "timestamp": "2025-01-01T00:00:01.000Z",
                "message": message,
            }
        )
        parent = eid
    for n, text in enumerate(ORDINARY):
        eid = f"o{n:03d}"
        entries.append(
            {
                "type": "message",
                "id": eid,
                "parentId": parent,
                "timestamp": "2025-01-01T00:00:02.000Z",
                "message": {"role": "user", "content": text},
            }
        )
        parent = eid
    entries.append(
        {
            "type": "message",
            "id": "args",
            "parentId": parent,
            "timestamp": "2025-01-01T00:00:03.000Z",
            "message": {
                "role": "assistant",
                "content": [
                    {
                        "type": "toolCall",
                        "id": "z",
                        "name": "login",
                        "arguments": {"user": "ana", "password": "correct horse"},
                    }
                ],
            },
        }
    )
    entries.append(
        {
            "type": "label",
            "id": "lab",
            "parentId": "args",
            "timestamp": "2025-01-01T00:00:04.000Z",
            "targetId": "e000",
            "label": CASES[0][1],
        }
    )
    header = {
        "type": "session",
        "version": 3,
        "id": "s1",
        "timestamp": "2025-01-01T00:00:00.000Z",
        "cwd": "/p",
    }
    return Session(write_session(tmp_path / "s.jsonl", header, entries))


def secret_pieces(secret: str) -> list[str]:
    """A secret, or each line of a multi-line one (JSON escapes the newlines)."""
    return [line for line in secret.split("\n") if len(line) > 8]


@pytest.mark.parametrize(
    ("fmt", "context"),
    [("md", False), ("md", True), ("html", False), ("html", True), ("jsonl", False)],
)
def test_no_secret_survives(tmp_path: Path, fmt: str, context: bool) -> None:
    session = planted_session(tmp_path)
    plain = export_session(
        session, options=ExportOptions(format=fmt, context=context, max_tool_lines=0)
    )  # type: ignore[arg-type]
    result = export_session(
        session, options=ExportOptions(format=fmt, context=context, redact=True, max_tool_lines=0)
    )  # type: ignore[arg-type]
    for kind, secret, _ in CASES:
        for piece in secret_pieces(secret):
            assert piece in plain.text, "the unredacted export has it"
            assert piece not in result.text, f"{kind} survived in {fmt}"
        assert f"[REDACTED:{kind}]" in result.text
    assert "correct horse" in plain.text and "correct horse" not in result.text
    for kind, _, _ in CASES:
        assert result.redacted[kind] >= 1
    assert result.redacted["named-secret"] == 1
    if fmt == "md":
        for text in ORDINARY:
            for line in text.splitlines():
                assert line.strip() in result.text
    if fmt == "jsonl":
        lines = [json.loads(line) for line in result.text.splitlines()]
        plain_lines = [json.loads(line) for line in plain.text.splitlines()]
        assert [e["id"] for e in lines[1:-1]] == [
            e["id"] for e in plain_lines[1:-1]
        ]  # the last: a new label id
        assert lines[-1]["label"] == "[REDACTED:openai]"


def test_jsonl_header_cwd_and_source_path_are_redacted(tmp_path: Path) -> None:
    """The cwd is in the header and, as Pi names the folder, in the source path."""
    key = "glpat-" + "a1B2c3D4e5" * 2
    cwd = f"/home/ana/{key}"
    folder = tmp_path / f"--home-ana-{key}--"
    folder.mkdir()
    header = {"type": "session", "version": 3, "id": "s1", "timestamp": "2025-01-01T00:00:00.000Z"}
    entry = {"type": "message", "id": "a", "parentId": None, "timestamp": "2025-01-01T00:00:01.000Z",
             "message": {"role": "user", "content": "hi"}}  # fmt: skip
    session = Session(write_session(folder / "s.jsonl", {**header, "cwd": cwd}, [entry]))
    result = export_session(session, options=ExportOptions(format="jsonl", redact=True))
    first = json.loads(result.text.splitlines()[0])
    assert key not in result.text
    assert first["cwd"] == "/home/ana/[REDACTED:gitlab]"
    assert first["parentSession"].endswith("--home-ana-[REDACTED:gitlab]--/s.jsonl")


def test_a_secret_in_a_session_folders_name_is_redacted_in_its_path() -> None:
    """Pi writes the cwd `/w/ghp_.../proj` as the folder `--w-ghp_...-proj--`: after a '-'
    the detector sees no boundary, so the path kept the secret whole (the MCP server's
    `path` fields) unless its cwd was known and written the same way."""
    from pitui.core.export.redactor import Redactor

    key = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    path = f"/home/me/.pi/agent/sessions/--w-{key}-proj--/s.jsonl"
    redactor = Redactor(True)
    assert redactor.path(path) == "/home/me/.pi/agent/sessions/--w-[REDACTED:github]-proj--/s.jsonl"
    assert redactor.path(path, f"/w/{key}/proj") == redactor.path(path)
    assert redactor.counts["github"] >= 1
    assert Redactor(False).path(path) == path
    ordinary = "/home/me/.pi/agent/sessions/--home-me-my-project--/2026_x.jsonl"
    assert Redactor(True).path(ordinary) == ordinary
