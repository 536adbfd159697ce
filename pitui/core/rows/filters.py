"""Which entries a `/tree` filter shows, as Pi's `default | no-tools | user-only |
labeled-only | all` (plus an internal `everything`: usage and tool-only assistants too)."""

from __future__ import annotations

from collections.abc import Container

from pitui.core.format.entry_types import EntryType
from pitui.core.rows.row_text import is_silent
from pitui.core.session.entry import Entry

FILTERS: tuple[str, ...] = ("default", "no-tools", "user-only", "labeled-only", "all")
EVERYTHING = "everything"  # internal: every entry, usage and tool-only assistants included
# What the filters make of each entry type: only `everything` shows `_NEVER_SHOWN`;
# `default` and `no-tools` hide `_SETTINGS`; any other type is shown as `passes` says of
# the filter and, for a message, of its role.
_NEVER_SHOWN = frozenset({EntryType.USAGE})
_SETTINGS = frozenset(
    {
        EntryType.LABEL,
        EntryType.CONTEXT_EDIT,
        EntryType.CUSTOM,
        EntryType.MODEL_CHANGE,
        EntryType.THINKING_LEVEL_CHANGE,
        EntryType.SESSION_INFO,
    }
)
_MESSAGE = EntryType.MESSAGE  # bound once: `passes` runs per entry, EntryType.X costs ~80 ns


def check_filter(mode: str) -> str:
    if mode not in FILTERS and mode != EVERYTHING:
        raise ValueError(f"unknown filter {mode!r}: use one of {', '.join(FILTERS)}")
    return mode


def passes(entry: Entry, mode: str, leaf_id: str | None, labeled: Container[str]) -> bool:
    """Whether `mode` shows `entry` while `leaf_id` is the leaf (a tool-call-only assistant
    shows only as the leaf); `labeled`: the ids that carry a label."""
    kind = entry.type
    if mode == EVERYTHING:
        return True
    if kind in _NEVER_SHOWN:
        return False
    fields = entry.message_fields  # entry.role, without a call: this runs per entry
    role = None if fields is None else fields.role
    if role == "assistant" and kind == _MESSAGE and entry.id != leaf_id and is_silent(entry):
        return False
    if mode == "user-only":
        return kind == _MESSAGE and role == "user"
    if mode == "labeled-only":
        return entry.id in labeled
    if mode == "all":
        return True
    if kind in _SETTINGS:
        return False
    return not (mode == "no-tools" and kind == _MESSAGE and role == "toolResult")
