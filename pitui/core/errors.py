"""Errors pitui reports to the user as one clear line."""

from __future__ import annotations


class PituiError(Exception):
    """A failure with a message meant for the user (no traceback)."""

    exit_status = 1


class UsageError(PituiError):
    """Input a command cannot take (a day that does not exist): exit status 2, as a wrong
    option gets from argparse."""

    exit_status = 2
