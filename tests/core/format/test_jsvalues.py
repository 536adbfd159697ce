r"""`normalize_ws_lower` is JavaScript's `toLowerCase().replace(/\s+/g, " ").trim()`: its fast
path (Python's `split`) must agree with the JavaScript whitespace it stands for."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pitui.core.format.jsvalues import JS_SPACE_RUN, js_trim, normalize_ws_lower

ALPHABET = "aB \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x85\xa0\u2028\u3000\ufeffİ"


def _as_javascript(text: str) -> str:
    return js_trim(JS_SPACE_RUN.sub(" ", text.lower()))


@given(st.text(alphabet=ALPHABET, max_size=40))
def test_the_fast_path_agrees_with_javascript(text: str) -> None:
    assert normalize_ws_lower(text) == _as_javascript(text)


def test_separators_javascript_keeps_are_kept() -> None:
    assert normalize_ws_lower("A\x1cB  \x1f c\n") == "a\x1cb \x1f c"
