"""Finding and redacting secrets in text and in JSON values."""

from __future__ import annotations

import bisect
import re
from collections import Counter
from dataclasses import dataclass
from operator import attrgetter
from typing import Any

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
    kept: list[Finding] = []
    for pattern in PATTERNS:
        for match in pattern.regex.finditer(text):
            start, end = match.span(pattern.group)
            if start == end or (pattern.random_only and not looks_random(match[pattern.group])):
                continue
            if pattern.by_context and is_placeholder(match[pattern.group]):
                continue
            at = bisect.bisect_left(kept, start, key=_START)
            if (at > 0 and kept[at - 1].end > start) or (at < len(kept) and kept[at].start < end):
                continue
            kept.insert(at, Finding(pattern.kind, start, end))
    return kept


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


def redact_json(value: Any, counts: Counter[str] | None = None) -> tuple[Any, Counter[str]]:
    """A copy of a JSON value with every string redacted, and the whole value of a key that
    names a secret (`"password": "hunter2"`). Keys themselves are kept."""
    counts = Counter() if counts is None else counts
    return _redact_value(value, counts, None), counts


def _redact_value(value: Any, counts: Counter[str], key: str | None) -> Any:
    if isinstance(value, str):
        if (
            key is not None
            and value
            and is_secret_key(key)
            and not _REDACTED.fullmatch(value)
            and not is_placeholder(value)
        ):
            counts["named-secret"] += 1
            return placeholder("named-secret")
        text, found = redact(value)
        counts.update(found)
        return text
    if isinstance(value, dict):
        return {
            k: _redact_value(v, counts, k if isinstance(k, str) else None) for k, v in value.items()
        }
    if isinstance(value, list):
        return [_redact_value(v, counts, None) for v in value]
    return value
