"""Finding and redacting secrets in text and in JSON values."""

from __future__ import annotations

import bisect
import functools
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ahocorasick_rs import BytesAhoCorasick, Implementation, MatchKind

from pitui.core.format.jsonline import deep_nesting_allowed
from pitui.core.secrets import encoded
from pitui.core.secrets.entropy import looks_random
from pitui.core.secrets.patterns import PATTERNS, Pattern
from pitui.core.secrets.values import is_placeholder

__all__ = ["Finding", "find_secrets", "is_placeholder", "is_secret_key", "redact", "redact_json"]

# JSON keys whose string value is a secret whatever it looks like.
_SECRET_KEY = re.compile(
    r"(?:api_?key|access_?key|secret_?key|private_?key|secret|token|passw(?:or)?d|pwd"
    r"|credentials?|authorization|auth)$"
)
_NOT_SECRET_KEY = re.compile(r"(?:max|total|input|output|cache|count|num|_)tokens?$")
_REDACTED = re.compile(r"\[REDACTED:[a-z\-]+\]")
MIN_SECRET = 3  # no shorter string is or holds a secret (a named one: "pw1")
ENCODED = len(PATTERNS)  # the handler of base64 fragments, after every pattern
MIN_WRAPPED_LINE = 60  # a line cut by a terminal is at least this long
_TAIL = re.compile(r"[A-Za-z0-9+/=_\-]{4,}(?=\s|$)")


@dataclass(frozen=True, slots=True)
class Finding:
    """A secret of `kind` at text[start:end]."""

    kind: str
    start: int
    end: int


def placeholder(kind: str) -> str:
    return f"[REDACTED:{kind}]"


def find_secrets(text: str, *, decode: bool = True) -> list[Finding]:
    """Every secret in the text, in order, none overlapping: where two overlap, the pattern
    listed first wins (a provider's key over a token found by its context). `decode`: look
    into base64 too."""
    candidates: list[tuple[int, int, int]] = []  # (pattern index, start, end)
    done = [-1] * (ENCODED + 1)  # where each pattern's last match ended
    for at, index in _anchor_hits(text):
        if at < done[index]:
            continue
        if index == ENCODED:
            run = encoded.encoded_run(text, at) if decode else None
            if run is not None:
                done[index] = run[1]  # each run is decoded once
                if run[2] is not None and find_secrets(run[2], decode=False):
                    candidates.append((index, run[0], run[1]))
            continue
        pattern = PATTERNS[index]
        match = pattern.regex.match(text, at)
        if match is not None:
            done[index] = match.end()
            if _is_secret(pattern, match):
                candidates.append((index, *match.span(pattern.group)))
    return _findings(text, _without_overlaps(candidates))


def _is_secret(pattern: Pattern, match: re.Match[str]) -> bool:
    secret = match[pattern.group]
    if not secret or (pattern.random_only and not looks_random(secret)):
        return False
    if pattern.by_context and is_placeholder(secret):
        return False
    return pattern.accept is None or pattern.accept(match)


def _without_overlaps(candidates: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    kept: list[tuple[int, int, int]] = []  # (start, end, pattern index), in order
    for index, start, end in sorted(candidates):
        at = bisect.bisect_left(kept, (start,))
        if (at > 0 and kept[at - 1][1] > start) or (at < len(kept) and kept[at][0] < end):
            continue
        kept.insert(at, (start, end, index))
    return kept


def _findings(text: str, kept: list[tuple[int, int, int]]) -> list[Finding]:
    findings = []
    for n, (start, end, index) in enumerate(kept):
        if index == ENCODED:
            findings.append(Finding(encoded.KIND, start, end))
            continue
        if PATTERNS[index].wraps:
            end = _wrapped_end(text, end, kept[n + 1][0] if n + 1 < len(kept) else len(text))
        findings.append(Finding(PATTERNS[index].kind, start, end))
    return findings


def _wrapped_end(text: str, end: int, limit: int) -> int:
    """Where a key that ends a long line ends: a terminal may have cut it there, its rest
    starting the next lines."""
    while text.startswith("\n", end) and end - text.rfind("\n", 0, end) > MIN_WRAPPED_LINE:
        tail = _TAIL.match(text, end + 1, limit)
        if tail is None or not _key_like(tail[0]):
            break
        end = tail.end()
    return end


def _key_like(tail: str) -> bool:
    """Random characters, not a word that starts the next line (`Done`, `OK`, `npm`)."""
    if any(c.isdigit() for c in tail):
        return True
    return any(c.isupper() for c in tail) and any(c.islower() for c in tail) and not tail.istitle()


def _anchor_hits(text: str) -> Iterator[tuple[int, int]]:
    """(position, handler) where an anchor starts, in order: a pattern's index, or ENCODED
    where a base64 fragment starts. Anchors are found in one pass over the text made ASCII
    (one byte a character) and lower case; each regex checks the case."""
    data = text.encode("ascii", "replace").lower()
    stride = ENCODED + 1
    hits = []  # position * stride + handler: integers sort fast
    for word, start, end in _AUTOMATON.find_matches_as_indexes(data, overlapping=True):
        for handler in _HANDLERS[word]:
            if handler != ENCODED or text[start:end] in _FRAGMENTS:
                hits.append(start * stride + handler)
    hits.sort()
    last = -1
    for hit in hits:
        if hit != last:
            last = hit
            yield divmod(hit, stride)


def _automaton() -> tuple[BytesAhoCorasick, list[list[int]]]:
    handlers: dict[str, list[int]] = {}
    for index, pattern in enumerate(PATTERNS):
        for word in {anchor.lower() for anchor in pattern.anchors}:
            handlers.setdefault(word, []).append(index)
    for fragment in encoded.FRAGMENTS:
        handlers.setdefault(fragment.lower(), []).append(ENCODED)
    words = list(handlers)
    automaton = BytesAhoCorasick(
        [w.encode() for w in words], MatchKind.Standard, implementation=Implementation.DFA
    )
    return automaton, [sorted(set(handlers[w])) for w in words]


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
    # a few short keys ("text", "path", "command") come again and again: remembered
    return _is_secret_name(name) if len(name) <= KEY_REMEMBERED else _secret_name(name)


KEY_REMEMBERED = 64  # characters: a longer (a hostile) key is not kept in memory


def _secret_name(name: str) -> bool:
    flat = name.lower().replace("-", "_")
    squashed = flat.replace("_", "")
    if _NOT_SECRET_KEY.search(flat) or squashed.endswith("tokens"):
        return False
    return bool(_SECRET_KEY.search(squashed))


_is_secret_name = functools.lru_cache(maxsize=4096)(_secret_name)


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


_AUTOMATON, _HANDLERS = _automaton()
_FRAGMENTS = frozenset(encoded.FRAGMENTS)
