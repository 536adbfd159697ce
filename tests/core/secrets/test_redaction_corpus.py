"""`pitui export --redact` on the corpus: in every format at least 95% of the secrets are
gone and at most 3 of the harmless lines are touched."""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

import pytest

from pitui.cli import main
from pitui.demo.generate import write_session
from tests.core.secrets.corpus import HARMLESS, SECRETS
from tests.entry_builders import header, message_entry, ts

FOUND_AT_LEAST = 0.95
HARMLESS_CHANGED_AT_MOST = 3


def _entries(items: list[tuple[str, str]]) -> list[dict[str, Any]]:
    """One entry (or a tool call and its result) per (place, text), chained."""
    entries: list[dict[str, Any]] = []
    for place, text in items:
        n = len(entries)
        parent = entries[-1]["id"] if entries else None
        eid = f"e{n:04d}"
        if place == "name":
            entries.append(
                {
                    "type": "session_info",
                    "id": eid,
                    "parentId": parent,
                    "timestamp": ts(n),
                    "name": text,
                }
            )
            continue
        if place == "label":
            target = parent or eid
            entries.append(
                {
                    "type": "label",
                    "id": eid,
                    "parentId": parent,
                    "timestamp": ts(n),
                    "targetId": target,
                    "label": text,
                }
            )
            continue
        entries.append(message_entry(eid, parent, _message(place, text, eid), n))
        if place in ("tool-args", "path"):
            result = {
                "role": "toolResult",
                "toolCallId": f"c{eid}",
                "toolName": "bash",
                "content": [{"type": "text", "text": "ok"}],
                "isError": False,
            }
            entries.append(message_entry(f"{eid}r", eid, result, n))
    return entries


def _message(place: str, text: str, eid: str) -> dict[str, Any]:
    if place == "user":
        return {"role": "user", "content": text}
    if place == "assistant":
        return {"role": "assistant", "content": [{"type": "text", "text": text}]}
    if place == "thinking":
        content = [{"type": "thinking", "thinking": text}, {"type": "text", "text": "Done."}]
        return {"role": "assistant", "content": content}
    if place == "tool-output":
        content = [{"type": "text", "text": text}]
        return {
            "role": "toolResult",
            "toolCallId": "c",
            "toolName": "bash",
            "content": content,
            "isError": False,
        }
    name, key = ("read", "path") if place == "path" else ("bash", "command")
    call = {"type": "toolCall", "id": f"c{eid}", "name": name, "arguments": {key: text}}
    return {"role": "assistant", "content": [call]}


@pytest.fixture(scope="module")
def session_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    cwd = next(s.text for s in SECRETS if s.place == "cwd")
    items = [(s.place, s.text) for s in SECRETS if s.place != "cwd"]
    # Harmless lines between the secrets, so no secret's text runs into another's.
    mixed = [item for pair in zip(items, HARMLESS, strict=False) for item in pair]
    mixed += items[len(HARMLESS) :] + HARMLESS[len(items) :]
    path = tmp_path_factory.mktemp("corpus") / "session.jsonl"
    return write_session(path, header(cwd=cwd), _entries(mixed))


def _export(session_file: Path, fmt: str, redact: bool, capsys: pytest.CaptureFixture[str]) -> str:
    args = ["export", str(session_file), "--format", fmt, "--max-tool-lines", "0"]
    assert main(args + (["--redact"] if redact else [])) == 0
    return capsys.readouterr().out


def _present(piece: str, output: str) -> bool:
    """The piece as it is, or as JSON or HTML escape it."""
    forms = {piece, json.dumps(piece)[1:-1], html.escape(piece), html.escape(piece, quote=False)}
    return any(form in output for form in forms)


def _lines(text: str) -> list[str]:
    return [line.strip() for line in text.split("\n") if line.strip()]


@pytest.mark.parametrize("fmt", ["md", "html", "jsonl"])
def test_redaction_finds_the_secrets_and_leaves_harmless_lines(
    session_file: Path, fmt: str, capsys: pytest.CaptureFixture[str]
) -> None:
    plain = _export(session_file, fmt, False, capsys)
    redacted = _export(session_file, fmt, True, capsys)
    for secret in SECRETS:
        assert all(_present(p, plain) for p in secret.parts), f"{secret.name} not in the export"
    missed = [s.name for s in SECRETS if any(_present(p, redacted) for p in s.parts)]
    shown = [line for _, text in HARMLESS for line in _lines(text) if _present(line, plain)]
    changed = [line for line in shown if not _present(line, redacted)]
    found = len(SECRETS) - len(missed)
    report = f"{fmt}: found {found}/{len(SECRETS)}, missed {missed}; harmless changed {changed}"
    assert found >= FOUND_AT_LEAST * len(SECRETS), report
    assert len(changed) <= HARMLESS_CHANGED_AT_MOST, report
    assert len(shown) >= len(HARMLESS), "the harmless lines are in the export"
