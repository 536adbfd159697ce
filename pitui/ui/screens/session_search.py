"""The session tree's search bar: the search as typed, searched in a thread worker, and Pi's
(highlighted/shown) counter; for a session opened from the picker's search, its words, whose
matches the tree marks among every row."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Static
from textual.worker import get_current_worker

from pitui.core.rows.safe_text import one_line
from pitui.ui.failures import ReportsFailures, thread_worker
from pitui.ui.widgets.entry_tree import EntryTree
from pitui.ui.worker_messages import TreeSearched


class TreeSearchBar(ReportsFailures, Horizontal):
    """Searches `tree` for what is typed on it (`EntryTree.SearchTyped`, handed over by the
    screen) and shows the answer there; hidden while no search is typed."""

    def __init__(self, tree: EntryTree, *, opening: str = "", id: str | None = None) -> None:
        """`opening`: the search of a session opened from a search, searched once it is
        loaded: its matches are marked among every row, the cursor on the first."""
        super().__init__(id=id)
        self._tree = tree
        self._opening = opening

    def compose(self) -> ComposeResult:
        yield Static(id="tree-search")
        yield Static(id="tree-search-count")

    def loaded(self, first: bool) -> None:
        """The tree is loaded (`first`: for the first time): search the opening search."""
        if first and self._opening and not self._tree.typed:
            self._search(self._opening)
        else:
            self._opening = ""

    def typed(self, text: str) -> None:
        """Show the search as typed, and search in a worker (the answer may come later)."""
        bar = Text("Search: ", style="bold")
        bar.append(one_line(text))
        bar.append("   Esc clears · Ctrl+N/Ctrl+P next/previous", style="dim")
        self.query_one("#tree-search", Static).update(bar)
        self.display = bool(text)
        self._search(text)

    @thread_worker("tree-search", "searching the tree", exclusive=True)
    def _search(self, text: str) -> None:
        """Off the UI thread: the first search of a large session reads every row's text
        (once: a search typed meanwhile waits for it, and one typed after it skips it)."""
        model = self._tree.model
        if model is not None:
            model.prepare_search()
        if get_current_worker().is_cancelled:
            return
        matches = model.search(text) if model is not None else []
        if not get_current_worker().is_cancelled:
            self.post_message(TreeSearched(text, matches))

    def on_tree_searched(self, message: TreeSearched) -> None:
        tree = self._tree
        if tree.typed:
            self._opening = ""  # typed in the tree meanwhile: its search instead
        elif self._opening and message.text == self._opening:
            self._opening = ""
            if message.matches:  # else the search matched the session, not one entry
                tree.mark_matches(message.text, message.matches)
                self._show_marked(message.text)
            return
        if message.text != tree.typed:
            return  # a newer search is on its way
        found = tree.show_matches(message.text, message.matches)
        self.query_one("#tree-search").set_class(bool(message.text) and not found, "-no-match")
        self.update_count()

    def _show_marked(self, text: str) -> None:
        bar = Text("Matches: ", style="bold")
        bar.append(one_line(text))
        bar.append("   Esc clears · Ctrl+N/Ctrl+P next/previous · typing searches", style="dim")
        self.query_one("#tree-search", Static).update(bar)
        self.query_one("#tree-search").set_class(False, "-no-match")
        self.display = True
        self.update_count()

    def update_count(self) -> None:
        """Pi's position counter while searching: (highlighted/shown); while the matches are
        marked, (matches up to the highlighted row/matches)."""
        tree = self._tree
        position, shown = tree.match_position()
        text = f"({position}/{shown})" if tree.search_text else ""
        self.query_one("#tree-search-count", Static).update(text)

    def clear(self) -> None:
        """Every row shown again, the bar hidden."""
        self._tree.clear_search()
        self.display = False
