"""Finding and redacting secrets in text and in JSON values."""

from __future__ import annotations

import bisect
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from operator import attrgetter
from typing import Any

from pitui.core.format.jsonline import deep_nesting_allowed
from pitui.core.secrets.entropy import looks_random
from pitui.core.secrets.patterns import PATTERNS

# JSON keys whose string value is a secret whatever it looks like.
_SECRET_KEY = re.compile(
    r"(?:api_?key|access_?key|secret_?key|private_?key|secret|token|passw(?:or)?d|pwd"
    r"|credentials?|authorization|auth)$"
)
_NOT_SECRET_KEY = re.compile(r"(?:max|total|input|output|cache|count|num|_)tokens?$")
_REDACTED = re.compile(r"\[REDACTED:[a-z\-]+\]")
_START = attrgetter("start")
MIN_SECRET = 3  # no shorter string is or holds a secret (a named one: "pw1")
LONG_TEXT = 32  # from this length, anchors are looked for one by one (measured)
_PLACEHOLDER = re.compile(
    r".*(?:\.\.\.|…)|<[^<>]*>|\$\{[^}]*\}|\{\{[^}]*\}\}|\*+|[xX]+|(?i:changeme|redacted|none|null)"
)


@dataclass(frozen=True, slots=True)
class Finding:
    """A secret of `kind` at text[start:end]."""

    kind: str
    start: int
    end: int


def is_placeholder(value: str) -> bool:
    """A stand-in of documentation, not a secret: `sk-ant-...`, `<your key>`, `xxxx`, `${KEY}`."""
    return bool(_PLACEHOLDER.fullmatch(value.strip()))


def placeholder(kind: str) -> str:
    return f"[REDACTED:{kind}]"


def find_secrets(text: str) -> list[Finding]:
    """Every secret in the text, in order, none overlapping: where two overlap, the pattern
    listed first wins (a provider's key over a token found by its context)."""
    candidates: list[tuple[int, int, int]] = []  # (pattern index, start, end)
    for index, match in _matches(text):
        pattern = PATTERNS[index]
        start, end = match.span(pattern.group)
        secret = match[pattern.group]
        if start == end or (pattern.random_only and not looks_random(secret)):
            continue
        if pattern.by_context and is_placeholder(secret):
            continue
        candidates.append((index, start, end))
    candidates.sort()
    kept: list[Finding] = []
    for index, start, end in candidates:
        at = bisect.bisect_left(kept, start, key=_START)
        if (at > 0 and kept[at - 1].end > start) or (at < len(kept) and kept[at].start < end):
            continue
        kept.insert(at, Finding(PATTERNS[index].kind, start, end))
    return kept


def _matches(text: str) -> Iterator[tuple[int, re.Match[str]]]:
    """(pattern index, match) of every pattern, each tried only where one of its anchors
    starts (most texts hold none)."""
    done = [-1] * len(PATTERNS)  # where each pattern's last match ended
    for at, index in _anchor_hits(text):
        if at < done[index]:
            continue
        match = PATTERNS[index].regex.match(text, at)
        if match is not None:
            done[index] = match.end()
            yield index, match
    for index, triggers in _UNANCHORED:
        if triggers.search(text):
            for match in PATTERNS[index].regex.finditer(text):
                yield index, match


def _anchor_hits(text: str) -> list[tuple[int, int]]:
    """(position, pattern index) where an anchor of the pattern starts, in order. A short
    text is scanned once by a regex of all anchors; a long one, where that regex costs more
    than one `str.find` per anchor, is searched lower-cased (each regex then checks case)."""
    hits: list[tuple[int, int]] = []
    if len(text) < LONG_TEXT:
        for hit in _ANCHOR_SCAN.finditer(text):
            found = hit.group(1)
            hits.extend(
                (hit.start(), index) for index in _BY_ANCHOR.get(found) or _BY_ANCHOR[found.lower()]
            )
        return hits
    lowered = text.lower()
    if len(lowered) != len(text):  # a letter whose lower case is longer
        lowered = text.encode("ascii", "replace").decode().lower()
    for word, indices in _BY_LOWER.items():
        at = lowered.find(word)
        while at != -1:
            hits.extend((at, index) for index in indices)
            at = lowered.find(word, at + 1)
    hits.sort()
    return hits


def _anchor_index() -> tuple[re.Pattern[str], dict[str, list[int]]]:
    """One regex finding every anchor where it starts, overlapping ones too,
    and the patterns to try for each (those whose anchor the found one starts with)."""
    words: dict[str, bool] = {}  # anchor -> case-insensitive
    for pattern in PATTERNS:
        for word in pattern.anchors or ():
            words[word] = words.get(word, False) or pattern.ignore_case
    by_anchor: dict[str, list[int]] = {}
    for word in words:
        by_anchor[word] = sorted(
            index
            for index, pattern in enumerate(PATTERNS)
            for other in pattern.anchors or ()
            if _starts(word, other, pattern.ignore_case)
        )
    longest_first = sorted(words, key=len, reverse=True)
    alternatives = "|".join(
        f"(?i:{re.escape(w)})" if words[w] else re.escape(w) for w in longest_first
    )
    return re.compile(f"(?=({alternatives}))"), by_anchor


def _starts(found: str, anchor: str, ignore_case: bool) -> bool:
    if ignore_case:
        return found.lower().startswith(anchor.lower())
    return found.startswith(anchor)


def redact(text: str) -> tuple[str, Counter[str]]:
    """The text with every secret replaced by `[REDACTED:kind]`, and how many of each kind."""
    findings = find_secrets(text)
    counts: Counter[str] = Counter(f.kind for f in findings)
    if not findings:
        return text, counts
    parts: list[str] = []
    at = 0
    for finding in findings:
        parts += [text[at : finding.start], placeholder(finding.kind)]
        at = finding.end
    parts.append(text[at:])
    return "".join(parts), counts


def is_secret_key(name: str) -> bool:
    """A JSON key or variable name whose value is a secret (`apiKey`, `password`, ...)."""
    flat = name.lower().replace("-", "_")
    squashed = flat.replace("_", "")
    if _NOT_SECRET_KEY.search(flat) or squashed.endswith("tokens"):
        return False
    return bool(_SECRET_KEY.search(squashed))


def redact_json(
    value: Any, counts: Counter[str] | None = None, keep: frozenset[str] = frozenset()
) -> tuple[Any, Counter[str]]:
    """A copy of a JSON value with every string redacted, and the whole value of a key that
    names a secret (`"password": "hunter2"`). Keys themselves are kept, and so are, at any
    depth, the values of the keys in `keep` and the pixels (`data`) of an image block."""
    counts = Counter() if counts is None else counts
    with deep_nesting_allowed(frames_per_level=2):  # as deep as JSON.parse reads
        return _redact_value(value, counts, None, keep), counts


def _redact_value(value: Any, counts: Counter[str], key: str | None, keep: frozenset[str]) -> Any:
    if isinstance(value, str):
        if len(value) < MIN_SECRET:
            return value
        if (
            key is not None
            and is_secret_key(key)
            and not _REDACTED.fullmatch(value)
            and not is_placeholder(value)
        ):
            counts["named-secret"] += 1
            return placeholder("named-secret")
        text, found = redact(value)
        if found:
            counts.update(found)
        return text
    if isinstance(value, dict):
        image = value.get("type") == "image"
        return {
            k: v
            if k in keep or (image and k == "data")
            else _redact_value(v, counts, k if isinstance(k, str) else None, keep)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [_redact_value(v, counts, None, keep) for v in value]
    return value


_ANCHOR_SCAN, _BY_ANCHOR = _anchor_index()
_BY_LOWER: dict[str, list[int]] = {}
for _index, _pattern in enumerate(PATTERNS):
    for _word in {anchor.lower() for anchor in _pattern.anchors or ()}:
        _BY_LOWER.setdefault(_word, []).append(_index)
_UNANCHORED = [
    (index, re.compile("|".join(map(re.escape, pattern.triggers)) or "^"))
    for index, pattern in enumerate(PATTERNS)
    if pattern.anchors is None
]
