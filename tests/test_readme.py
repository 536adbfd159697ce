"""The README stays true and renders: CI runs exactly its Quick start's test command, its key
tables name the app's keys, and markdown-it shows every heading, image and link of the README
and docs/ as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from markdown_it import MarkdownIt
from markdown_it.token import Token

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"
DOCUMENTS = [README, *sorted((REPO / "docs").glob("*.md"))]
MAX_README_LINES = 300
IMAGE = re.compile(r"!\[[^\]]*\]\(([^)\s]+)")  # an image as written in the source
HEADING = re.compile(r"#{1,6} ")
EXTERNAL = re.compile(r"^[a-z][a-z0-9+.-]*:|^#", re.I)  # a URL with a scheme, or an anchor


def quick_start_commands() -> list[str]:
    readme = README.read_text()
    section = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    return [block.strip() for block in re.findall(r"```sh\n(.*?)```", section, re.S)]


def test_quick_start_is_two_commands() -> None:
    demo, tests = quick_start_commands()
    assert "pitui --demo" in demo and "pip install" in demo
    assert "[test]" in tests and "pytest" in tests


def test_ci_runs_exactly_the_readme_test_command() -> None:
    ci = (REPO / ".ci" / "run").read_text().splitlines()
    assert quick_start_commands()[1] in ci


def parse(text: str) -> list[Token]:
    """Block tokens and, flattened after them, every inline child (images, links)."""
    blocks = MarkdownIt("commonmark").enable("table").parse(text)
    return blocks + [child for t in blocks for child in t.children or []]


def unclosed_fences(text: str) -> list[int]:
    """1-based lines of code fences that run to the end of the document unclosed."""
    lines = text.splitlines()
    found = []
    for token in parse(text):
        if token.type != "fence" or token.map is None:
            continue
        start, end = token.map
        last = lines[end - 1].strip() if end - start >= 2 else ""
        closed = last.startswith(token.markup) and set(last) == {token.markup[0]}
        if not closed:
            found.append(start + 1)
    return found


def stray_headings(text: str) -> list[int]:
    """1-based lines written as a heading that do not render as one (in a code block, most
    likely one a stray fence opened)."""
    rendered = {t.map[0] for t in parse(text) if t.type == "heading_open" and t.map}
    return [
        number
        for number, line in enumerate(text.splitlines(), 1)
        if HEADING.match(line) and number - 1 not in rendered
    ]


def images(text: str) -> tuple[list[str], list[str]]:
    """The image targets written in the source, and those markdown-it renders as images."""
    rendered = [str(t.attrs["src"]) for t in parse(text) if t.type == "image"]
    return IMAGE.findall(text), rendered


def missing_targets(text: str, folder: Path) -> list[str]:
    """Relative image and link targets that name no file of the repository."""
    targets = [str(t.attrs.get("src") or t.attrs.get("href") or "") for t in parse(text)]
    local = [
        target.split("#", 1)[0]
        for target in targets
        if target and not EXTERNAL.match(target) and not target.startswith("/")
    ]
    return [target for target in local if not (folder / target).exists()]


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: p.name)
def test_every_code_fence_is_closed(document: Path) -> None:
    assert unclosed_fences(document.read_text()) == []


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: p.name)
def test_every_heading_renders_as_a_heading(document: Path) -> None:
    assert stray_headings(document.read_text()) == []


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: p.name)
def test_every_image_renders_and_exists(document: Path) -> None:
    written, rendered = images(document.read_text())
    assert rendered == written
    assert missing_targets(document.read_text(), document.parent) == []


def test_the_readme_shows_its_screenshots() -> None:
    _, rendered = images(README.read_text())
    assert rendered and all(src.startswith("screenshots/") for src in rendered)


def test_the_readme_is_a_short_document() -> None:
    lines = len(README.read_text().splitlines())
    assert lines <= MAX_README_LINES


# Textual's key names as the README writes them.
KEY_NAMES = {
    "pageup": "PgUp",
    "pagedown": "PgDn",
    "escape": "Esc",
    "minus": "-",
    "equals_sign": "=",
    "question_mark": "?",
}
# A key like the README writes one: modifiers, then a word (Enter, PgUp, F1) or one character.
KEY_TOKEN = re.compile(r"^(?:(?:Ctrl|Shift|Alt)\+)*(?:[A-Z][A-Za-z]*\d*|\S)$")
NOT_DOCUMENTED = {"ctrl+j"}  # an Enter typed before the terminal left its line mode


def shown_key(key: str) -> str:
    """A Textual key (`ctrl+shift+o`, `L`, `alt+minus`) as the README writes it."""
    *modifiers, base = key.split("+")
    if len(base) == 1 and base.isupper():
        modifiers, base = [*modifiers, "shift"], base.lower()
    short = len(base) == 1 or re.fullmatch(r"f\d+", base)
    name = KEY_NAMES.get(base) or (base.upper() if short else base.capitalize())
    return "+".join([*(m.capitalize() for m in modifiers), name])


def binding_keys(bindings: list) -> set[str]:
    keys = {key.strip() for binding in bindings for key in binding.key.split(",")}
    return {shown_key(key) for key in keys - NOT_DOCUMENTED}


def key_tables(text: str) -> dict[str, set[str]]:
    """Each key table of `text` by its title (its first header cell): the keys of its first
    column (`Ctrl+T / Ctrl+U`, `Up/Down, PgUp/PgDn`, `Enter on the header`)."""
    tables: dict[str, set[str]] = {}
    title, cell, keys = None, 0, set()
    for token in MarkdownIt("commonmark").enable("table").parse(text):
        if token.type == "table_open":
            title, keys = None, set()
        elif token.type in ("th_open", "td_open"):
            cell += 1
        elif token.type == "tr_open":
            cell = 0
        elif token.type == "inline" and cell == 1:
            if title is None:
                title = token.content
            else:
                words = re.split(r"[\s,/()]+", token.content)
                keys |= {w for w in words if KEY_TOKEN.match(w) and w != "or"}
        elif token.type == "table_close" and title is not None:
            tables[title] = keys
    return tables


def app_bindings() -> dict[str, tuple[set[str], set[str]]]:
    """Per README table: the keys it must name, and every key it may name."""
    from pitui.ui.app import PituiApp
    from pitui.ui.screens.picker_keys import PICKER_BINDINGS
    from pitui.ui.screens.session import SessionHeader
    from pitui.ui.screens.session_keys import SESSION_BINDINGS
    from pitui.ui.widgets.context_pane import ContextList
    from pitui.ui.widgets.entry_tree_keys import ENTRY_TREE_BINDINGS
    from pitui.ui.widgets.message_pane import MessagePane
    from pitui.ui.widgets.search_box import SearchBox

    everywhere = binding_keys(PituiApp.BINDINGS) | {shown_key(PituiApp.COMMAND_PALETTE_BINDING)}
    picker = binding_keys(PICKER_BINDINGS)
    session = binding_keys(
        SESSION_BINDINGS + ENTRY_TREE_BINDINGS + SessionHeader.BINDINGS + MessagePane.BINDINGS
    )
    return {
        "Picker": (picker, picker | binding_keys(SearchBox.BINDINGS) | everywhere),
        "Session": (session, session | binding_keys(ContextList.BINDINGS) | everywhere),
        "Everywhere": (everywhere, everywhere),
    }


def test_the_key_tables_name_the_apps_keys() -> None:
    """Every key of the picker, the session screen and the app is in its README table, and the
    table names no key the app does not have (a letter there would type into the search)."""
    tables = key_tables(README.read_text())
    for title, (required, allowed) in app_bindings().items():
        documented = tables[title]
        assert required - documented == set(), f"{title}: keys missing from the README"
        assert documented - allowed == set(), f"{title}: keys the app does not have"


def test_key_names_as_the_readme_writes_them() -> None:
    shown = [shown_key(k) for k in ("ctrl+shift+o", "L", "alt+minus", "pageup", "f1", "alt+1")]
    assert shown == ["Ctrl+Shift+O", "Shift+L", "Alt+-", "PgUp", "F1", "Alt+1"]


def test_the_checks_catch_a_stray_fence() -> None:
    """The fault the README once had: a fence closing nothing opens a block that swallows
    the headings and images after it."""
    text = "# T\n\n```sh\npitui\n```\nprose\n```\n\n## Keys\n\n![shot](screenshots/picker.svg)\n"
    assert stray_headings(text) == [9]
    assert images(text) == (["screenshots/picker.svg"], [])
    assert unclosed_fences(text) == [7]
