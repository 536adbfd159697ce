"""Which entries of a session file hold credentials, as the export's redaction sees them
(`secrets.detect`): every string of an entry but the fields that tie entries together
or name things, and the whole value of a key that names a secret. Values leave this module
masked only.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import orjson

from pitui.core.errors import PituiError
from pitui.core.format.entry_types import EntryType
from pitui.core.format.jsonline import LineError, deep_nesting_allowed, parse_line
from pitui.core.regular_file import read_regular
from pitui.core.secrets.detect import MIN_SECRET, find_secrets, is_placeholder, is_secret_key

# The export's `NAMING_KEYS` (tests/commands/test_secrets_command.py holds them equal): fields
# that tie entries together or name things, never secrets.
KEPT_KEYS = frozenset({
    "type", "id", "parentId", "timestamp", "targetId", "fromId",
    "role", "toolCallId", "toolName", "api", "provider", "model", "modelId", "stopReason",
    "mimeType", "customType", "thinkingSignature", "textSignature", "responseId",
})  # fmt: skip
NAMED = "named-secret"  # the export's kind for the value of a key such as "password"
_REDACTED = re.compile(r"\[REDACTED:[a-z\-]+\]")
SHOWN = 4  # characters of a long secret shown before the mask
SHOWN_FROM = 20  # shorter secrets show none


@dataclass(frozen=True)
class SecretHit:
    """One credential: the entry (None: a line without an id), its 1-based line, its kind
    and its value masked."""

    entry_id: str | None
    line: int
    kind: str
    masked: str


@dataclass
class SessionSecrets:
    path: str
    cwd: str = ""
    hits: list[SecretHit] = field(default_factory=list)
    scanned: int = 0  # bytes read, up to the end of the last complete line
    lines: int = 0  # complete lines read (numbered from 1, the header's)

    @property
    def kinds(self) -> Counter[str]:
        return Counter(hit.kind for hit in self.hits)

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "kinds": dict(sorted(self.kinds.items())),
            "secrets": [
                {"id": h.entry_id, "line": h.line, "kind": h.kind, "masked": h.masked}
                for h in self.hits
            ],
        }


def mask(value: str) -> str:
    """Never the secret: its first characters when it is long (a provider's prefix, mostly),
    and its length."""
    shown = value[:SHOWN] if len(value) >= SHOWN_FROM else ""
    return f"{shown}…({len(value)} chars)"


def scan_session(path: str, offset: int = 0, first_line: int = 1) -> SessionSecrets:
    """Every credential in the complete lines of a regular session file, from byte `offset`
    (the start of line `first_line`). A line being written, without its newline yet, is left
    for the next scan: `scanned` ends before it."""
    try:
        data = read_regular(path, offset)  # never blocks on a FIFO
    except OSError as error:
        raise PituiError(f"cannot read {path}: {error.strerror or error}") from None
    result = SessionSecrets(path)
    complete = data.rfind(b"\n") + 1
    result.scanned, result.lines = offset + complete, first_line - 1
    for number, line in enumerate(data[:complete].split(b"\n")[:-1], first_line):
        result.lines = number
        try:
            raw = orjson.loads(line)
        except orjson.JSONDecodeError:
            raw = _as_pi_reads(line)  # what orjson refuses and JSON.parse reads (deep JSON)
        if isinstance(raw, dict):
            _entry_of_any_depth(raw, number, result)
    return result


def _entry_of_any_depth(raw: dict[str, Any], number: int, result: SessionSecrets) -> None:
    """`_entry`, the recursion limit lifted only for a line nested deeper than it allows
    (lifting it for every line was a tenth of the scan; the limit is the whole process's,
    so it is lifted for as short a time as can be)."""
    try:
        _entry(raw, number, result)
    except RecursionError:  # `_entry` adds its hits at the end: none were added
        with deep_nesting_allowed(frames_per_level=2):
            _entry(raw, number, result)


def _as_pi_reads(line: bytes) -> Any:
    try:
        return parse_line(line)
    except LineError:
        return None


def _entry(raw: dict[str, Any], number: int, result: SessionSecrets) -> None:
    if raw.get("type") == EntryType.SESSION and not result.cwd and isinstance(raw.get("cwd"), str):
        result.cwd = raw["cwd"]
    entry_id = raw.get("id")
    found: list[tuple[str, str]] = []
    _walk(raw, None, found)
    result.hits += [
        SecretHit(entry_id if isinstance(entry_id, str) else None, number, kind, mask(value))
        for kind, value in found
    ]


def _walk(value: Any, key: str | None, found: list[tuple[str, str]]) -> None:
    """(kind, value) of every secret in a JSON value, as `redact_json` would replace them."""
    if isinstance(value, str):
        if len(value) < MIN_SECRET:
            return
        if key is not None and is_secret_key(key) and not is_placeholder(value):
            if not _REDACTED.fullmatch(value):  # an export redacted it already
                found.append((NAMED, value))
            return
        found += [(f.kind, value[f.start : f.end]) for f in find_secrets(value)]
    elif isinstance(value, dict):
        image = value.get("type") == "image"
        for k, v in value.items():
            if k in KEPT_KEYS or (image and k == "data"):
                continue
            _walk(v, k if isinstance(k, str) else None, found)
    elif isinstance(value, list):
        for item in value:
            _walk(item, None, found)
