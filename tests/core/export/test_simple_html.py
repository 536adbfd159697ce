"""Blocks rendered without markdown-it render exactly as markdown-it renders them, and the
blocks most of an export is made of take that way."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pitui.core.export.html import _MD
from pitui.core.export.simple_html import simple_html

TRICKY = [
    *"ab Z09 \n`*_#->+=.)(<&\"'[]!\\|~\t:·é",
    "**",
    "```",
    "1.",
    "  ",
    "\n\n",
    "* ",
    "\n ",
    "\n    ",
    "# ",
    "\n## ",
    "*x*",
    "*`a` b*",
    "\n  \n",
    "\n     ",
    "->",
    "--",
    "- ",
]


def assert_as_markdown_it(text: str) -> None:
    """A block rendered without markdown-it (None: left to it) is markdown-it's HTML."""
    simple = simple_html(text)
    if simple is not None:
        assert simple == _MD.render(text)


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(TRICKY), max_size=24).map("".join))
def test_a_simple_block_renders_as_markdown_it_does(text: str) -> None:
    assert_as_markdown_it(text)


@settings(max_examples=1500, deadline=None)
@given(
    st.lists(
        st.sampled_from(["word", "a_b", "x", " ", "`code`", "**Bold it**", "\n", "\n\n", "-", "1"]),
        max_size=16,
    ).map("".join)
)
def test_words_code_and_strong_render_as_markdown_it_does(text: str) -> None:
    assert_as_markdown_it(text)


@settings(max_examples=1500, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            ["*", "word", "_", " ", "`co*de`", "\n", "\n    ", "\n \n", "# ", "-", ">", "1.", "…"]
        ),
        max_size=14,
    ).map("".join)
)
def test_emphasis_indented_lines_and_blank_lines_render_as_markdown_it_does(text: str) -> None:
    assert_as_markdown_it(text)


def test_the_usual_blocks_of_an_export_need_no_parser() -> None:
    usual = [
        "### Tool result: `read` · `52863cd3` (error)",
        "### Assistant · claude-sonnet-4-5 · `d0af525e`",
        "**Tool call** `read` `src/app.py`",
        "Reading the relevant files.",
        'Done. `pitui/core/x.py` now has "hints".\n\nf, value: int) -> int:  # the flush_1 call',
        "Let me read it. n\n 646  def walk_645(self) -> int:  # the login\n# the CI\n 648  def",
        "1766  def \n 461  \n 848  def walk_847(self, value: int) -> int:   ",
        "*Model: `anthropic/claude-sonnet-4-5`*",
        "*… 12 more lines not shown*",
        "Done. `a.py` now has hints.\n\nf, value: int) -> int:  # the CSV importer\n",
        "Read it. f flush_1(self) -> int:  # the cache\n    -> int:  # the login\n  \n # the CI",
    ]
    for text in usual:
        assert simple_html(text) == _MD.render(text)


def test_markdown_syntax_goes_to_markdown_it() -> None:
    for text in [
        "1. item",
        "a\n===",
        "<b>x</b>",
        "[a](javascript:x)",
        "*em *",
        "* em*",
        "*a **b***",
        "a\n- b",
        "> q",
        "a &amp; b",
        "`a``b`",
        "### title ###",
        "| a | b |",
        "~~s~~",
        "x\\*",
        "\tcode",
    ]:
        assert simple_html(text) is None, text
