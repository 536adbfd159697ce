"""Sessions and texts shared by the export tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pitui.core.rows.safe_text import visible
from pitui.core.session.reader import NotASession
from pitui.core.session.session import Session
from pitui.demo.generate import generate_corpus, write_demo_store


def store_sessions(root: Path) -> list[Session]:
    """Every session of the demo store and of a generated corpus."""
    demo = sorted((write_demo_store(root / "demo")).rglob("*.jsonl"))
    corpus = generate_corpus(root / "corpus", seed=3)
    sessions = []
    for path in [*demo, *corpus]:
        try:
            sessions.append(Session(path))
        except NotASession:
            continue
    return sessions


def conversation_texts(raws: list[dict[str, Any]]) -> list[str]:
    """Every non-blank user and assistant text of these entries, in order, as exported."""
    texts = []
    for raw in raws:
        message = raw.get("message") if raw.get("type") == "message" else None
        if not isinstance(message, dict) or message.get("role") not in ("user", "assistant"):
            continue
        content = message.get("content")
        if isinstance(content, str):
            texts.append(content)
        for block in content if isinstance(content, list) else ():
            if isinstance(block, dict) and block.get("type") == "text":
                texts.append(str(block.get("text", "")))
    return [visible(t) for t in texts if t.strip()]


def assert_in_order(document: str, texts: list[str]) -> None:
    at = 0
    for text in texts:
        found = document.find(text, at)
        assert found >= 0, f"missing or out of order: {text[:80]!r}"
        at = found + len(text)
