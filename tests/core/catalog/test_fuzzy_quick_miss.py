"""`quick_miss` rules out exactly the texts `fuzzy_match` does not match: the search skips
Pi's fuzzy scoring for those, so a wrong answer either way would change a listing."""

from __future__ import annotations

import random

from pitui.core.catalog.search.fuzzy import fuzzy_match, quick_miss

# letters, digits, boundaries, regex and character-class specials, case pairs, and
# characters whose lowercase is longer (İ) or differs (Σ)
ALPHABET = "ab1 2-_./:]^\\[*?.()$|İiΣσß\nZ"


def _text(rng: random.Random, longest: int) -> str:
    return "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, longest)))


def test_quick_miss_is_exactly_no_fuzzy_match() -> None:
    rng = random.Random(7)
    for _ in range(20_000):
        query, text = _text(rng, 4), _text(rng, 12)
        missed = quick_miss(query)(text.lower())
        assert missed == (not fuzzy_match(query, text)[0]), (query, text)


def test_letters_then_digits_swapped_are_not_missed() -> None:
    assert fuzzy_match("abc12", "12-abc")[0]
    assert not quick_miss("abc12")("12-abc")
    assert quick_miss("abc12")("1-2-c-b-a")
    assert not fuzzy_match("abc12", "1-2-c-b-a")[0]


def test_a_long_text_without_the_last_character_is_ruled_out_at_once() -> None:
    assert quick_miss("a" * 30 + "b")("a" * 100_000)
