"""Label times (Pi's Shift+T in /tree) are formatted as Pi formats them."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from pitui.core.format.timestamps import label_time


def _iso(moment: datetime) -> str:
    return (
        moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"
    )


def test_label_times_equal_pi(pi_oracle: Any) -> None:
    now = datetime.now(UTC)
    moments = [now - timedelta(minutes=5), now - timedelta(days=40), now - timedelta(days=800)]
    stamps = [_iso(m) for m in moments] + ["2001-02-03T04:05:06.000Z", "2026-01-09T23:59:00Z"]
    pi = pi_oracle.request({"op": "labelTimes", "timestamps": stamps})
    assert [label_time(s) for s in stamps] == pi


@pytest.fixture
def tokyo(monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setenv("TZ", "Asia/Tokyo")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.mark.usefixtures("tokyo")
def test_local_time_decides_the_day() -> None:
    now = datetime(2026, 11, 30, 10, 0)  # local (Tokyo, UTC+9)
    assert label_time("2026-11-29T20:00:00.000Z", now) == "05:00"  # 05:00 on the 30th there
    assert label_time("2026-11-29T14:59:00.000Z", now) == "11/29 23:59"
    assert label_time("2025-12-31T15:00:00.000Z", now) == "1/1 00:00"  # already 2026 there
    assert label_time("2025-12-31T14:00:00.000Z", now) == "25/12/31 23:00"


def test_unreadable_times_show_nothing() -> None:
    assert label_time("not a date") is None
    assert label_time(None) is None
