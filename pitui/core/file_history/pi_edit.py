"""How Pi's edit tool finds and replaces text (1.6.0's `tools/edit-diff.js`):
`applyEditsToNormalizedContent` with its exact-then-fuzzy matching, on LF text."""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from pitui.core.format.jsvalues import JS_SPACE
from pitui.core.format.tool_arguments import Replacement

_SINGLE_QUOTES = re.compile("[\u2018\u2019\u201a\u201b]")
_DOUBLE_QUOTES = re.compile("[\u201c\u201d\u201e\u201f]")
_DASHES = re.compile("[\u2010\u2011\u2012\u2013\u2014\u2015\u2212]")
_SPACES = re.compile("[\u00a0\u2002-\u200a\u202f\u205f\u3000]")


class EditFailed(ValueError):
    """Pi's tool would have refused this edit on this text (not found, not unique, ...)."""


@dataclass(frozen=True, slots=True)
class Span:
    """`length` characters at `index` of the text replaced by `new_text`."""

    index: int
    length: int
    new_text: str


def normalize_to_lf(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


def normalize_for_fuzzy_match(text: str) -> str:
    """Pi's normalizeForFuzzyMatch: NFKC, trailing whitespace of each line dropped, smart
    quotes, Unicode dashes and spaces as their ASCII forms."""
    text = unicodedata.normalize("NFKC", text)
    text = "\n".join(line.rstrip(JS_SPACE) for line in text.split("\n"))
    text = _SINGLE_QUOTES.sub("'", text)
    text = _DOUBLE_QUOTES.sub('"', text)
    text = _DASHES.sub("-", text)
    return _SPACES.sub(" ", text)


def _fuzzy_find(content: str, old_text: str) -> tuple[int, int, bool]:
    """Pi's fuzzyFindText: (index, length, fuzzy); index -1 when not found."""
    exact = content.find(old_text)
    if exact != -1:
        return exact, len(old_text), False
    fuzzy_old = normalize_for_fuzzy_match(old_text)
    index = normalize_for_fuzzy_match(content).find(fuzzy_old)
    if index == -1:
        return -1, 0, False
    return index, len(fuzzy_old), True


def _occurrences(content: str, old_text: str) -> int:
    needle = normalize_for_fuzzy_match(old_text)
    return normalize_for_fuzzy_match(content).count(needle) if needle else 0


def _line_spans(text: str) -> list[tuple[int, int]]:
    spans, start = [], 0
    for match in re.finditer(r"[^\n]*\n|[^\n]+", text):
        spans.append((start, match.end()))
        start = match.end()
    return spans


def _apply(text: str, spans: Sequence[Span], offset: int = 0) -> str:
    for span in reversed(spans):
        at = span.index - offset
        text = text[:at] + span.new_text + text[at + span.length :]
    return text


@dataclass(slots=True)
class _Group:
    start: int  # first line
    end: int  # past the last line
    spans: list[Span]


def _widen_to_lines(original: str, base: str, spans: list[Span]) -> list[Span]:
    """Pi's widenReplacementsToLines: fuzzy matches rewrite the whole lines they touch, from
    the normalised text; the other lines keep the original's."""
    original_lines, base_lines = _line_spans(original), _line_spans(base)
    if len(original_lines) != len(base_lines):
        raise EditFailed("the base content has a different line count")
    groups: list[_Group] = []
    for span in sorted(spans, key=lambda s: s.index):
        start = next((i for i, (a, b) in enumerate(base_lines) if a <= span.index < b), -1)
        if start == -1:
            raise EditFailed("replacement range is outside the base content")
        end = start
        while end < len(base_lines) and base_lines[end][1] < span.index + span.length:
            end += 1
        if end >= len(base_lines):
            raise EditFailed("replacement range is outside the base content")
        if groups and start < groups[-1].end:
            groups[-1].end = max(groups[-1].end, end + 1)
            groups[-1].spans.append(span)
        else:
            groups.append(_Group(start, end + 1, [span]))
    widened = []
    for group in groups:
        base_start, base_end = base_lines[group.start][0], base_lines[group.end - 1][1]
        original_start = original_lines[group.start][0]
        new_text = _apply(base[base_start:base_end], group.spans, base_start)
        widened.append(
            Span(original_start, original_lines[group.end - 1][1] - original_start, new_text)
        )
    return widened


def apply_edits(content: str, edits: Sequence[Replacement]) -> tuple[str, list[Span]]:
    """Pi's applyEditsToNormalizedContent on LF `content`: the new content and the sorted,
    disjoint spans of `content` that make it. Raises `EditFailed` where Pi's tool fails."""
    normalized = [(normalize_to_lf(e.old_text), normalize_to_lf(e.new_text)) for e in edits]
    if any(not old for old, _ in normalized):
        raise EditFailed("oldText must not be empty")
    fuzzy = any(_fuzzy_find(content, old)[2] for old, _ in normalized)
    base = normalize_for_fuzzy_match(content) if fuzzy else content
    matched: list[tuple[int, Span]] = []
    for number, (old, new) in enumerate(normalized):
        index, length, _ = _fuzzy_find(base, old)
        if index == -1:
            raise EditFailed(f"edits[{number}] not found")
        if _occurrences(base, old) > 1:
            raise EditFailed(f"edits[{number}] is not unique")
        matched.append((number, Span(index, length, new)))
    matched.sort(key=lambda pair: pair[1].index)
    for (_, before), (_, after) in itertools.pairwise(matched):
        if before.index + before.length > after.index:
            raise EditFailed("edits overlap")
    spans = [span for _, span in matched]
    if fuzzy:
        spans = _widen_to_lines(content, base, spans)
    new_content = _apply(content, spans)
    if new_content == content:
        raise EditFailed("no change")
    return new_content, spans
