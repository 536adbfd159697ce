"""Background passes wait for a quiet moment: a second without a key or a click."""

from __future__ import annotations

import time

import pytest

from pitui.ui import user_activity
from pitui.ui.user_activity import UserActivity


def test_without_input_there_is_no_wait() -> None:
    started = time.monotonic()
    UserActivity().wait_until_quiet()
    assert time.monotonic() - started < 0.5


def test_after_input_the_wait_lasts_the_quiet_time(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(user_activity, "QUIET_SECONDS", 0.3)
    activity = UserActivity()
    activity.noted()
    started = time.monotonic()
    activity.wait_until_quiet()
    assert time.monotonic() - started >= 0.3


def test_a_cancelled_pass_stops_waiting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(user_activity, "QUIET_SECONDS", 60)
    activity = UserActivity()
    activity.noted()
    started = time.monotonic()
    activity.wait_until_quiet(cancelled=lambda: time.monotonic() - started > 0.2)
    assert time.monotonic() - started < 5
