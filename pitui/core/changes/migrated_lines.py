"""The lines of a v1/v2 session file as Pi's migration rewrites them (values, not bytes)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pitui.core.changes.file_messages import shown
from pitui.core.errors import PituiError
from pitui.core.format.entry_types import EntryType
from pitui.core.format.jsonline import LineError, parse_line
from pitui.core.format.migration import CURRENT_VERSION
from pitui.core.session.entry import Entry
from pitui.core.session.session import Session


def migrated_values(session: Session, data: bytes) -> list[Any]:
    """Every line Pi keeps, in order, migrated in place as Pi's migrateToCurrentVersion."""
    by_line = {entry.line: entry for entry in session.tree.entries}
    source = session.version
    values: list[Any] = []
    lines = data.split(b"\n")[:-1]
    for number, raw in enumerate(lines, start=1):
        entry = by_line.get(number)
        if entry is not None:
            values.append(entry.raw)
            continue
        value = _parse_kept(raw)
        if value is _SKIP:
            continue
        values.append(_other_line(value, number, source, header=not values, path=session.path))
    _check_ids(values, session.tree.entries)
    return values


_SKIP = object()


def _parse_kept(raw: bytes) -> Any:
    if not raw.strip():
        return _SKIP
    try:
        return parse_line(raw)
    except LineError:
        return _SKIP  # Pi drops unparsable lines when it rewrites


def _other_line(value: Any, number: int, source: int, *, header: bool, path: Path) -> Any:
    """A line that is not an entry: the header, an extra header, or a non-object value."""
    if isinstance(value, dict):
        if header or value.get("type") == EntryType.SESSION:
            _check_header_version(value, path)
            value = dict(value)
            value["version"] = CURRENT_VERSION  # Pi sets it in place, or appends it
        return value
    if value is None or source < 2:
        raise PituiError(
            f"line {number} of {shown(path.name)} is not a JSON object: Pi cannot migrate "
            f"this v{source} file, and pitui will not write to it"
        )
    return value  # Pi's v2 -> v3 step leaves arrays, strings and numbers as they are


def _check_header_version(header: dict[str, Any], path: Path) -> None:
    version = header.get("version")
    if version is None or isinstance(version, int):
        return
    raise PituiError(
        f"{shown(path.name)} has an unusual session version {shown(repr(version))}: pitui "
        "will not migrate it"
    )


def _check_ids(values: list[Any], entries: list[Entry]) -> None:
    """Guard: the entries written are exactly the ones pitui shows, in order."""
    written = [v for v in values if isinstance(v, dict) and v.get("type") != EntryType.SESSION]
    if [id(v) for v in written] != [id(e.raw) for e in entries]:
        raise PituiError("internal error: migrated entries do not match the session's entries")
