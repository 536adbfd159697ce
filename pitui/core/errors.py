"""Errors pitui reports to the user as one clear line."""

from __future__ import annotations


class PituiError(Exception):
    """A failure with a message meant for the user (no traceback)."""
