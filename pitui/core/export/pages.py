"""A branch or a leaf's context a page at a time, for agents (`pitui mcp`).

Every page is bounded: at most `limit` entries or messages and about `PAGE_CHARS`
characters of JSON (always at least one entry or message, itself cut to fit), parts
included: a string longer than `TEXT_CHARS` is cut, an image's base64 data is left out, and
the parts past the budget are left out, each cut said in the value (`truncated` is then
true). A message with 300 screenshots was 6 MB, one with a million parts 56 MB. Only what is
shown is read and redacted, so such a message costs no more than a small one.

Secrets are redacted by default, with the export's detector. A page names the leaf it was
read from: reading the next pages from that leaf gives the same branch, even while the
session grows (a file only ever has lines appended).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from pitui.core.changes.file_messages import no_entry
from pitui.core.errors import PituiError
from pitui.core.export.build import resolve_leaf
from pitui.core.export.export import entry_markdown
from pitui.core.export.redactor import NAMING_KEYS, Redactor
from pitui.core.export.source import entry_raws
from pitui.core.format.entry_types import EntryType
from pitui.core.rows.safe_text import visible
from pitui.core.session.entry import Entry
from pitui.core.session.session import Session

PAGE_CHARS = 60_000
TEXT_CHARS = 20_000
MAX_LIMIT = 200
MARGIN = 512  # characters read past a cut, so that a secret across it is still found
NESTED_TOO_DEEP = "[a message nested too deeply to show]"


def branch_page(
    session: Session, leaf_id: str | None, offset: int = 0, limit: int = 20, redact: bool = True
) -> dict[str, Any]:
    """The branch ending at `leaf_id` (default: the session's leaf), entries `offset` on:
    each its number on the branch (`n`, from the root), id, time and Markdown text (a
    message's heading says its role), its type when not a message."""
    leaf = _leaf(session, leaf_id)
    path = session.tree.path_to(leaf.id) if leaf else []
    start, end = _window(offset, limit, len(path))
    redactor = Redactor(redact)
    page: dict[str, Any] = {"sessionId": session.header.get("id")}
    name = session.tree.name
    if isinstance(name, str) and name:
        page["name"] = redactor.text(visible(name))
    page["cwd"] = redactor.path(visible(str(session.cwd)))
    if leaf is not None:
        page["leaf"] = leaf.id
    page.update(total=len(path), offset=start)
    return _fill(page, "entries", _branch_items(path[start:end], start, redact), len(path))


def context_page(
    session: Session, leaf_id: str | None, offset: int = 0, limit: int = 20, redact: bool = True
) -> dict[str, Any]:
    """The context Pi builds from `leaf_id` (as `pitui context --json`: its settings and
    messages), messages `offset` on, each cut to fit the page (then `truncated` is true)."""
    leaf = _leaf(session, leaf_id)
    context = session.context(leaf.id if leaf else None)
    data = context.to_json()
    messages = data.pop("messages")
    start, end = _window(offset, limit, len(messages))
    redactor = Redactor(redact)
    page: dict[str, Any] = {"sessionId": session.header.get("id")}
    if leaf is not None:
        page["leaf"] = leaf.id
    settings = redactor.value(data)
    page.update({key: value for key, value in settings.items() if value not in (None, {})})
    page.update(estimatedTokens=context.tokens, messageCount=len(messages), offset=start)
    items = _cut_messages(messages[start:end], redactor)
    return _fill(page, "messages", items, len(messages))


def _branch_items(path: list[Entry], start: int, redact: bool) -> Iterator[tuple[Any, bool]]:
    """Each entry of `path` as a page shows it (numbered from `start`), and whether its
    text was cut."""
    for number, (entry, raw) in enumerate(entry_raws(path), start=start):
        item: dict[str, Any] = {"n": number, "id": entry.id}
        if entry.type != EntryType.MESSAGE:
            item["type"] = entry.type
        if isinstance(entry.timestamp, str):
            item["timestamp"] = entry.timestamp
        item["text"], entry_cut = _entry_text(raw, redact)
        yield item, entry_cut


def _cut_messages(messages: list[Any], redactor: Redactor) -> Iterator[tuple[Any, bool]]:
    """Each message cut to fit a page, and whether it was cut."""
    for message in messages:
        cutter = _Cutter(redactor, PAGE_CHARS)
        try:
            shown = cutter.value(message)
        except RecursionError:
            shown, cutter.cut = NESTED_TOO_DEEP, True
        yield shown, cutter.cut


def _fill(
    page: dict[str, Any], key: str, values: Iterator[tuple[Any, bool]], total: int
) -> dict[str, Any]:
    """`page` with, under `key`, the first of `values` (each made only when asked for, with
    whether it was cut) whose JSON fits in `PAGE_CHARS` characters, at least one; then
    where the next page starts and whether anything was cut."""
    kept: list[Any] = []
    size = 0
    cut = False
    for value, value_cut in values:
        weight = len(json.dumps(value, ensure_ascii=False))
        if kept and size + weight > PAGE_CHARS:
            break
        kept.append(value)
        size += weight
        cut = cut or value_cut
    if page["offset"] + len(kept) < total:
        page["nextOffset"] = page["offset"] + len(kept)
    if cut:
        page["truncated"] = True
    page[key] = kept
    return page


def _entry_text(raw: dict[str, Any], redact: bool) -> tuple[str, bool]:
    """An entry's Markdown, without its id (the page says it), cut to `TEXT_CHARS`; whether
    anything was cut. Only what can be shown is rendered."""
    cutter = _Cutter(Redactor(False), PAGE_CHARS, TEXT_CHARS + MARGIN)
    try:
        small = cutter.value({key: value for key, value in raw.items() if key != "id"})
        text = entry_markdown(small, redact=redact).strip()
    except RecursionError:
        return NESTED_TOO_DEEP, True
    if len(text) <= TEXT_CHARS:
        return text, cutter.cut
    return text[:TEXT_CHARS] + f"\n[… {len(text) - TEXT_CHARS:,} more characters not shown]", True


def _leaf(session: Session, leaf_id: str | None) -> Any:
    if leaf_id is not None and session.tree.get(leaf_id) is None:
        raise PituiError(no_entry(leaf_id, session.path))
    return resolve_leaf(session, leaf_id)


def _window(offset: int, limit: int, total: int) -> tuple[int, int]:
    if offset < 0 or limit < 1:
        raise PituiError("offset must be 0 or more and limit 1 or more")
    start = min(offset, total)
    return start, min(total, start + min(limit, MAX_LIMIT))


class _Cutter:
    """Copies a JSON value within about `budget` characters: strings over `text_chars`
    cut, an image's base64 data left out, and once the budget is spent the rest of a list or
    an object left out, each cut said where it is (`cut` is then true). Only what is kept
    is redacted, as the export redacts (the values of naming keys kept, a key that names a
    secret hiding its whole value)."""

    def __init__(self, redactor: Redactor, budget: int, text_chars: int = TEXT_CHARS) -> None:
        self.redactor, self.left, self.text_chars = redactor, budget, text_chars
        self.cut = False

    def value(self, value: Any, key: str | None = None, redact: bool = True) -> Any:
        if isinstance(value, str):
            return self._text(value, key, redact)
        if isinstance(value, dict):
            return self._object(value, redact)
        if isinstance(value, list):
            out: list[Any] = []
            for count, item in enumerate(value):
                if self.left <= 0:
                    self.cut = True
                    out.append(f"[… {len(value) - count:,} more items not shown]")
                    break
                self.left -= 2
                out.append(self.value(item, None, redact))
            return out
        self.left -= 8
        return value

    def _object(self, value: dict[Any, Any], redact: bool) -> dict[Any, Any]:
        if value.get("type") == "image" and isinstance(value.get("data"), str):
            self.cut = True
            data = f"[image data not shown: {len(value['data']):,} characters of base64]"
            value = {**value, "data": data}
        out: dict[Any, Any] = {}
        for count, (key, item) in enumerate(value.items()):
            if self.left <= 0:
                self.cut = True
                out["…"] = f"{len(value) - count:,} more fields not shown"
                break
            name = key if isinstance(key, str) else None
            self.left -= len(name or "") + 4
            out[key] = self.value(item, name, redact and key not in NAMING_KEYS)
        return out

    def _text(self, text: str, key: str | None, redact: bool) -> str:
        limit = min(self.text_chars, max(self.left, 200))
        shown = text[: limit + MARGIN]
        if redact and self.redactor.enabled:
            shown = self.redactor.value(shown if key is None else {key: shown})
            shown = shown if key is None else shown[key]
        if len(text) > limit:
            self.cut = True
            shown = shown[:limit] + f"[… {len(text) - limit:,} more characters]"
        elif len(shown) > limit:  # a redaction made it longer
            shown = shown[:limit]
        self.left -= len(shown) + 2
        return shown
