"""In-memory migration of v1 and v2 entries to the current format, as Pi does on open.

Pi gives v1 entries random ids; pitui derives them from the session id and the line's
position, so the same file shows the same ids on every reload and a later on-disk
migration can write exactly the ids the user has been looking at.
"""

from __future__ import annotations

from typing import Any

from pitui.core.format.entry_types import EntryType

CURRENT_VERSION = 3
NEWER_HARNESS = "a newer Pi session format that pitui cannot read yet"
NEWER_FORMAT = "newer format"


def header_version(header: dict[str, Any]) -> int:
    version = header.get("version")
    return version if isinstance(version, int) and not isinstance(version, bool) else 1


def is_newer(header: dict[str, Any]) -> bool:
    """The header names a version above the one pitui knows: read as far as pitui can,
    never written to (an entry in the old format could break it for a newer Pi)."""
    version = header.get("version")
    if not isinstance(version, int | float) or isinstance(version, bool):
        return False
    return version > CURRENT_VERSION


def is_harness_header(value: Any) -> bool:
    """The first line of Pi's newer harness format: `{"kind":"header","version":4,...}`."""
    return isinstance(value, dict) and value.get("kind") == "header" and "type" not in value


class Migrator:
    """Migrates entries one at a time, in file order."""

    def __init__(self, header: dict[str, Any]) -> None:
        self.source_version = header_version(header)
        self._seed = str(header.get("id"))
        self._used: set[str] = set()
        self._id_by_parsed_index: dict[int, str] = {}
        self._previous_id: str | None = None

    @property
    def needed(self) -> bool:
        return self.source_version < CURRENT_VERSION

    def migrate(self, raw: dict[str, Any], parsed_index: int) -> str | None:
        """Migrate `raw` in place; `parsed_index` counts parsed lines, header = 0.

        Returns a problem description, or None.
        """
        if self.source_version < 2:
            self._chain(raw, parsed_index)
        if self.source_version < 3:
            message = raw.get("message")
            if (
                raw.get("type") == EntryType.MESSAGE
                and isinstance(message, dict)
                and message.get("role") == "hookMessage"
            ):
                message["role"] = "custom"
        return None

    def _chain(self, raw: dict[str, Any], parsed_index: int) -> None:
        entry_id = self._new_id(parsed_index)
        raw["id"] = entry_id
        raw["parentId"] = self._previous_id
        self._previous_id = entry_id
        self._id_by_parsed_index[parsed_index] = entry_id
        if raw.get("type") == EntryType.COMPACTION and "firstKeptEntryIndex" in raw:
            index = raw["firstKeptEntryIndex"]
            if isinstance(index, int | float) and not isinstance(index, bool):
                target = self._id_by_parsed_index.get(int(index)) if index == int(index) else None
                if target is not None:
                    raw["firstKeptEntryId"] = target
                del raw["firstKeptEntryIndex"]

    def _new_id(self, parsed_index: int) -> str:
        # deferred: hashlib loads OpenSSL, ~5 ms off every command; only v1 sessions need it
        import hashlib

        counter = 0
        while True:
            digest = hashlib.sha1(f"{self._seed}:{parsed_index}:{counter}".encode()).hexdigest()
            candidate = digest[:8]
            if candidate not in self._used:
                self._used.add(candidate)
                return candidate
            counter += 1
