"""The `type` of each line Pi 1.6.0 writes to a session file (`SessionHeader` and the
`SessionEntry` union of its `core/session-manager.d.ts`).

Members are strings (`EntryType.MESSAGE == "message"`, with str's hash), so a line's `type`
compares with them, and finds them as dict keys, as read. What each type does lives in one
table per concern, keyed by member (ARCHITECTURE.md, "An entry type").

On Python 3.11 reaching `EntryType.X` costs about 80 ns a time (EnumType's `__getattr__`
hook), comparing with a member once reached what a str comparison costs: a per-entry loop
binds the member to a local first, a function called per line to a module name
(`_MESSAGE = EntryType.MESSAGE`, ~3 ns a reach), and a per-line hook of loading keeps a bare
string."""

from __future__ import annotations

from enum import StrEnum


class EntryType(StrEnum):
    SESSION = "session"  # the header, the file's first line
    MESSAGE = "message"
    THINKING_LEVEL_CHANGE = "thinking_level_change"
    MODEL_CHANGE = "model_change"
    USAGE = "usage"
    COMPACTION = "compaction"
    BRANCH_SUMMARY = "branch_summary"
    CUSTOM = "custom"
    LABEL = "label"
    SESSION_INFO = "session_info"
    CUSTOM_MESSAGE = "custom_message"
    CONTEXT_EDIT = "context_edit"


ENTRY_TYPES = frozenset(EntryType) - {EntryType.SESSION}  # the entries after the header
