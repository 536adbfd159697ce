"""Toasts that make way for a dialog, except errors: an error stays for the rest of its time."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from textual.app import App
from textual.notifications import SeverityLevel


@dataclass(frozen=True)
class _ErrorShown:
    message: str
    title: str
    markup: bool
    until: float  # time.monotonic()


class KeepsErrorToasts(App[Any]):
    """An app whose error toasts outlive `clear_toasts_but_errors`."""

    _errors_shown: tuple[_ErrorShown, ...] = ()

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)
        if severity == "error":
            shown_for = self.NOTIFICATION_TIMEOUT if timeout is None else timeout
            error = _ErrorShown(message, title, markup, time.monotonic() + shown_for)
            self._errors_shown = (*self._errors_shown, error)

    def clear_toasts_but_errors(self) -> None:
        now = time.monotonic()
        errors = [error for error in self._errors_shown if error.until > now]
        self.clear_notifications()
        self._errors_shown = ()
        for error in errors:
            self.notify(
                error.message,
                title=error.title,
                severity="error",
                timeout=error.until - now,
                markup=error.markup,
            )
