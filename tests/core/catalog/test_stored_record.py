"""A summary as the index stores it comes back whole, whatever its values hold."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from pitui.core.catalog.summary import SessionSummary

BASE = SessionSummary(
    path="/s/--p--/a.jsonl",
    id="019b78ad-4dc9-73f9-aebd-8d1649df52aa",
    cwd="/home/dev/p",
    name="named",
    parent_session_path=None,
    created_ms=1_767_256_182_217,
    modified_ms=1_767_258_209_919,
    message_count=3,
    first_message="hello",
    all_messages_text="hello there",
    labels=("l1",),
    models=("m",),
    total_tokens=12,
    total_cost=0.5,
    size=100,
    mtime_ns=1_796_500_787_547_990_108,
)


def _same(a: SessionSummary, b: SessionSummary) -> bool:
    def fields(s: SessionSummary) -> dict:
        record = s.to_record()
        return {k: (repr(v) if isinstance(v, float) else v) for k, v in record.items()}

    return fields(a) == fields(b) and a.all_messages_text == b.all_messages_text


@pytest.mark.parametrize(
    "summary",
    [
        BASE,
        replace(BASE, total_tokens=math.inf, total_cost=math.nan),  # JavaScript's numbers
        replace(BASE, total_tokens=-math.inf, total_cost=-0.0),
        replace(BASE, id=2**70, parent_session_path={"raw": [1, 2**80]}),  # beyond 64 bits
        replace(BASE, id=1.5, parent_session_path=["x", None, True]),  # raw header values
        replace(BASE, all_messages_text="lone \udc80 surrogate", name="n\ud800"),
    ],
)
def test_a_stored_record_comes_back_whole(summary: SessionSummary) -> None:
    stored = summary.stored_record()
    text = summary.all_messages_text
    back = SessionSummary.from_record(stored, None if "\udc80" in text else text)
    assert _same(back, summary)


def test_a_plain_record_is_not_stored_as_json() -> None:
    """MessagePack: a warm listing decodes 10,000 of them (see docs/PERFORMANCE.md)."""
    assert not BASE.stored_record().startswith(b"{")
    assert SessionSummary.from_record(BASE.stored_record(), None).text_loaded is False
