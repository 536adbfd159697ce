"""Whether a token looks random: what tells a key from a word, a path or a number."""

from __future__ import annotations

import math
from collections import Counter

MIN_LENGTH = 16
MIN_BITS_PER_CHAR = 3.0


def shannon_entropy(text: str) -> float:
    """Bits per character of the text's own character distribution."""
    if not text:
        return 0.0
    size = len(text)
    return -sum(n / size * math.log2(n / size) for n in Counter(text).values())


def looks_random(token: str) -> bool:
    """At least 16 characters mixing letters and digits, with a spread-out alphabet.

    Words, paths and identifiers have no digits or repeat few letters; numbers have no
    letters."""
    core = token.rstrip("=")
    if len(core) < MIN_LENGTH:
        return False
    if not any(c.isdigit() for c in core) or not any(c.isalpha() for c in core):
        return False
    return shannon_entropy(core) >= MIN_BITS_PER_CHAR
