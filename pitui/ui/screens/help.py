"""Every key: the bindings of the screen underneath, its widgets, and the app."""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.dom import DOMNode
from textual.keys import key_to_character
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import Static

from pitui.ui.app_base import ListsSessions
from pitui.ui.keymap import UNBOUND

SEARCH_HELP = [
    ("words", "every word must match (any order, case-insensitive)"),
    ('"a phrase"', "the exact phrase"),
    ("re:<regex>", "a regular expression"),
    ("name: cwd: label: model:", "field filters (value may be quoted; label: alone: any)"),
    ("after:D before:D", "modified on or after / before day D (YYYY-MM-DD, UTC)"),
    ("pin: tag:NAME tag:", "pinned / with that tag / with any tag (pitui's own marks)"),
    ("file:PATH", "sessions that wrote or edited PATH (a folder: anything under it)"),
    ("in:local in:archive", "this machine's session folder only / the archive"),
    ("in:all host:NAME", "here, the archive and every remote / one remote"),
]


NARROW = 60  # columns below which a key may wrap


class HelpScreen(ModalScreen[None]):
    """Lists the keys of `under` (the screen that was showing), grouped by where they act."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "escape,q,f1,question_mark",
            "close",
            "Close",
            id="help.close",
            tooltip="Close the help",
        ),
    ]

    def __init__(self, under: Screen[object]) -> None:
        super().__init__(classes="modal", id="help")
        self.under = under

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog help-dialog"):
            yield Static(Text("pitui keys", style="bold"), classes="dialog-title")
            yield Static(self._keys_table())
            yield Static(Text("Esc closes · Ctrl+K opens the command palette", style="dim"))

    def action_close(self) -> None:
        self.dismiss(None)

    def _keys_table(self) -> Table:
        table = Table.grid(padding=(0, 2))
        # keys on one line, unless the screen is so narrow that no room was left for what
        # they do (40 columns: "left, ctrl+b" and nothing after it)
        narrow = self.app.size.width < NARROW
        table.add_column(style="bold", no_wrap=not narrow, ratio=1 if narrow else None)
        table.add_column(ratio=2 if narrow else None)
        for title, rows in self._groups():
            table.add_row(Text(title, style="underline"), "")
            for keys, text in rows:
                table.add_row(Text(keys), Text(text))
            table.add_row("", "")
        if isinstance(self.under, ListsSessions):  # the picker: its search box
            table.add_row(Text("Search syntax", style="underline"), "")
            for syntax, text in SEARCH_HELP:
                table.add_row(Text(syntax), Text(text))
        return table

    def _groups(self) -> list[tuple[str, list[tuple[str, str]]]]:
        """What each key does on the screen underneath now (its focused widget's keys, then
        the screen's, then the app's), with the user's remaps: Textual's active bindings."""
        groups: dict[DOMNode, dict[str, list[str]]] = {}
        for key, active in self.under.active_bindings.items():
            binding = active.binding
            if key == UNBOUND or _means_nothing_here(active.node, binding):
                continue
            text = self._text_of(binding)
            if text is not None:
                groups.setdefault(active.node, {}).setdefault(text, []).append(_key_name(key))
        typing = TYPING.get(type(self.under.focused).__name__)
        result = []
        if typing is not None:
            result.append(("Typing", [("a, b, 1, space...", typing)]))
        for node, rows in groups.items():
            listed = [(", ".join(keys), text) for text, keys in rows.items()]
            result.append((self._title_of(node), listed))
        return result

    def _text_of(self, binding: Binding) -> str | None:
        """What the help says a key does; None: not listed (a key Textual binds on every
        screen that means nothing here, or one pitui does not show)."""
        if binding.action in TEXTUAL_COPY:
            return None
        if binding.action in TEXTUAL_FOCUS_KEYS:
            return self._focus_key_text(binding.action)
        if binding.action in UNDESCRIBED:
            return UNDESCRIBED[binding.action]
        if binding.description and not binding.system:
            return binding.tooltip or binding.description
        return None

    def _focus_key_text(self, action: str) -> str | None:
        """Tab / Shift+Tab in pitui's words, where there is somewhere else to go."""
        if len(self.under.focus_chain) < 2:
            return None
        place = "field" if isinstance(self.under, ModalScreen) else "pane"
        return f"{TEXTUAL_FOCUS_KEYS[action]} {place}"

    def _title_of(self, node: DOMNode) -> str:
        if node is self.under:
            return "This screen"
        if node is self.app:
            return "Everywhere"
        return _title(type(node).__name__)


# Textual's keys on every screen: Tab and Shift+Tab move the focus; its Super+C copies the
# text selected, which pitui's Ctrl+C does (and a terminal rarely passes Super on)
TEXTUAL_FOCUS_KEYS = {
    "app.focus_next": "Go to the next",
    "app.focus_previous": "Go to the previous",
}
TEXTUAL_COPY = frozenset({"screen.copy_text"})
# pitui's keys bound without a description (kept out of the footer and the palette): listed
UNDESCRIBED = {"copy_or_say_how_to_quit": "Copy the text selected (none: say how to quit)"}
HORIZONTAL_SCROLLING = frozenset({"scroll_left", "scroll_right", "page_left", "page_right"})


def _means_nothing_here(node: DOMNode, binding: Binding) -> bool:
    """Textual's horizontal scrolling keys (Ctrl+PageUp "Page Left"...) on a widget that does
    not scroll sideways, as pitui's tree and panes do not: not listed."""
    scrolls = isinstance(node, Widget) and node.allow_horizontal_scroll
    return binding.action in HORIZONTAL_SCROLLING and not scrolls


TYPING = {
    "SearchBox": "types in the search box",
    "EntryTree": "searches the tree (Backspace: erase, Esc: clear)",
    "MessagePane": "searches the tree",
    "ContextList": "searches the tree",
}


def _title(name: str) -> str:
    spaced = "".join(f" {c}" if c.isupper() else c for c in name).strip()
    return spaced[0] + spaced[1:].lower()


def _key_name(key: str) -> str:
    """A binding's key as typed: `?`, `[`, `esc`, `ctrl+x` (Textual names printable keys)."""
    key = key.strip()
    names = {"escape": "esc", "pagedown": "pgdn", "pageup": "pgup"}
    if key in names:
        return names[key]
    character = key_to_character(key)
    return character if character and character.isprintable() and character != " " else key
