"""Times as JavaScript reads and writes them, over its whole range (±8.64e15 ms: years
-271821 to 275760), where Python's datetime stops at years 1 to 9999."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pitui.core.format.timestamps import MAX_JS_TIME, iso_ms, local_minutes, to_ms, utc_minutes

# new Date(text).getTime() in Node 22 (V8), null where it is NaN
NODE_TIMES = [
    ("2026-02-30T00:00:00Z", 1772409600000),  # V8 takes any day up to 31: March 2nd
    ("2026-02-29T00:00:00.000Z", 1772323200000),
    ("2026-04-31T00:00:00Z", 1777593600000),
    ("1900-02-29T00:00:00Z", -2203891200000),
    ("2024-02-29T00:00:00.000Z", 1709164800000),
    ("2026-01-01T24:00:00Z", 1767312000000),
    ("2026-01-01T24:00:01Z", None),
    ("0000-01-01", -62167219200000),
    ("0000-12-31T23:59:59.999Z", -62135596800001),
    ("+002026-01-01T00:00:00.000Z", 1767225600000),
    ("-000001-01-01T00:00:00.000Z", -62198755200000),
    ("-000000-01-01T00:00:00.000Z", None),
    ("2026-01-01T10:00+01:00", 1767258000000),
    ("2026-01-01T10:00:00.5Z", 1767261600500),
    ("2026-01-01T10:00:00.12345Z", 1767261600123),
    ("+275760-09-13T00:00:00.000Z", 8640000000000000),
    ("+275760-09-13T00:00:00.001Z", None),
    ("-271821-04-20T00:00:00.000Z", -8640000000000000),
    ("-271821-04-19T23:59:59.999Z", None),
    ("+275760-09-13", 8640000000000000),
    ("2026-01-01T10:00:60Z", None),
    ("2026-13-01T00:00:00Z", None),
    ("2026-01-01T10:00:00.000+24:00", None),
    ("2026-01-01T10:00:00.000+23:59", 1767175260000),
]


@pytest.mark.parametrize(("text", "expected"), NODE_TIMES)
def test_times_read_as_node_reads_them(text: str, expected: int | None) -> None:
    assert to_ms(text) == expected


@pytest.mark.parametrize(
    ("ms", "text"),
    [
        (0, "1970-01-01T00:00:00.000Z"),
        (-1, "1969-12-31T23:59:59.999Z"),
        (MAX_JS_TIME, "+275760-09-13T00:00:00.000Z"),
        (-MAX_JS_TIME, "-271821-04-20T00:00:00.000Z"),
        (-62135596800001, "0000-12-31T23:59:59.999Z"),
        (-49572686076196, "0399-02-08T01:25:23.804Z"),
        (253402300800000, "+010000-01-01T00:00:00.000Z"),
    ],
)
def test_written_as_to_iso_string_writes_them(ms: float, text: str) -> None:
    assert iso_ms(ms) == text  # Date.prototype.toISOString


@given(st.integers(-int(MAX_JS_TIME), int(MAX_JS_TIME)))
def test_every_javascript_time_round_trips(ms: int) -> None:
    assert to_ms(iso_ms(ms)) == ms


def test_times_beyond_the_system_clock_show_in_utc() -> None:
    assert local_minutes(MAX_JS_TIME) == "+275760-09-13 00:00 UTC"
    assert utc_minutes(-MAX_JS_TIME) == "-271821-04-20 00:00 UTC"
    assert utc_minutes(1767261600500) == "2026-01-01 10:00 UTC"
