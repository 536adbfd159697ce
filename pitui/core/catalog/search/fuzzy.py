"""Pi's `fuzzyMatch` (pi-tui): in-order subsequence match, lower score = better."""

from __future__ import annotations

import re
from collections.abc import Callable

_BOUNDARY = set(" \t\n\v\f\r-_./:")  # /[\s\-_./:]/ for the characters that matter here
_ALPHA_NUM = re.compile(r"^([a-z]+)([0-9]+)$")
_NUM_ALPHA = re.compile(r"^([0-9]+)([a-z]+)$")


def _score_positions(text: str, positions: list[int]) -> float:
    score = 0.0
    last = -1
    consecutive = 0
    for i in positions:
        if last == i - 1:
            consecutive += 1
            score -= consecutive * 5
        else:
            consecutive = 0
            if last >= 0:
                score += (i - last - 1) * 2
        if i == 0 or text[i - 1] in _BOUNDARY or text[i - 1].isspace():
            score -= 10
        score += i * 0.1
        last = i
    return score


def _match_query(query: str, text: str) -> tuple[bool, float]:
    if not query:
        return True, 0.0
    if len(query) > len(text):
        return False, 0.0
    positions: list[int] = []
    last = -1
    for ch in query:
        i = text.find(ch, last + 1)
        if i == -1:
            return False, 0.0
        positions.append(i)
        last = i
    score = _score_positions(text, positions)
    start = text.find(query)
    while start != -1:
        score = min(score, _score_positions(text, list(range(start, start + len(query)))))
        start = text.find(query, start + 1)
    if query == text:
        score -= 100
    return True, score


def quick_miss(query: str) -> Callable[[str], bool]:
    """A test that rules a text out at C speed: True when the text (lowercased) holds the
    characters of `query` (lowercased) neither in order nor, for letters then digits or
    digits then letters, swapped; `fuzzy_match(query, text)` is then (False, 0.0). Each
    character is found as `str.find` finds it, the first after the last (no backtracking)."""
    q = query.lower()
    chains = [q]
    found = _ALPHA_NUM.match(q) or _NUM_ALPHA.match(q)
    if found is not None:
        chains.append(found.group(2) + found.group(1))
    pattern = re.compile("|".join(_in_order(chain) for chain in chains))
    return lambda text: pattern.match(text) is None


def _in_order(chain: str) -> str:
    return "(?:" + "".join(f"[^{re.escape(ch)}]*+{re.escape(ch)}" for ch in chain) + ")"


def fuzzy_match(query: str, text: str) -> tuple[bool, float]:
    """(matches, score) as pi-tui's `fuzzyMatch`, including its letters/digits swap."""
    q, t = query.lower(), text.lower()
    primary = _match_query(q, t)
    if primary[0]:
        return primary
    found = _ALPHA_NUM.match(q) or _NUM_ALPHA.match(q)
    if found is None:
        return primary
    swapped = _match_query(found.group(2) + found.group(1), t)
    return (True, swapped[1] + 5) if swapped[0] else primary
