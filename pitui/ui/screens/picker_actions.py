"""What the picker does with the highlighted session: open, resume, fork, rename, export, trash,
and the toggles of scope, sort, named filter and paths."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.screen import Screen
from textual.widgets import Input

from pitui.core.catalog.search.query import text_words
from pitui.core.catalog.search.search import SORTS
from pitui.core.rows.safe_text import one_line
from pitui.ui.branch_actions import ask_tags, toggle_pin
from pitui.ui.handoff import ask_unarchive
from pitui.ui.modals.confirm import ConfirmModal
from pitui.ui.modals.dialog_body import PathText
from pitui.ui.modals.export import ask_export
from pitui.ui.session_actions import ask_name, ask_trash
from pitui.ui.widgets.session_table import SessionTable


class PickerActions(Screen[None]):
    """The picker screen's actions (mixed into `PickerScreen`)."""

    all_scope: bool
    archive: bool
    sort: str
    named_only: bool
    show_paths: bool
    rows: list[Any]
    highlighted: Any
    run_search: Callable[[], None]
    _update_status: Callable[[], None]
    _update_catalog: Callable[[list[Path], list[Path]], None]
    defer: Callable[[str], bool]

    def action_move_list(self, move: str, step: int) -> None:
        """Move the list's selection by rows (`cursor`) or pages (`page`)."""
        table = self.query_one(SessionTable)
        if move == "page":
            table.action_page(step)
        else:
            table.action_cursor(step)

    def action_escape(self) -> None:
        search = self.query_one("#search", Input)
        if search.value:
            search.value = ""
        else:
            self.app.exit()

    def action_toggle_scope(self) -> None:
        self.all_scope = not self.all_scope
        self.run_search()
        self._update_status()

    def action_toggle_archive(self) -> None:
        """The archive as a scope of its own (Tab still chooses this folder / all)."""
        self.archive = not self.archive
        self.run_search()
        self._update_status()

    def action_cycle_sort(self) -> None:
        self.sort = SORTS[(SORTS.index(self.sort) + 1) % len(SORTS)]
        self.run_search()
        self._update_status()

    def action_toggle_named(self) -> None:
        self.named_only = not self.named_only
        self.run_search()
        self._update_status()

    def action_toggle_paths(self) -> None:
        self.show_paths = not self.show_paths
        self.set_class(self.show_paths, "-paths")  # the list takes the preview's width
        self.query_one(SessionTable).show_rows(
            self.rows,
            now=self.app.now(),
            all_scope=self.all_scope,
            show_paths=self.show_paths,
            home=self.app.config.home,
        )

    def action_open(self) -> None:
        from pitui.ui.screens.session import SessionScreen

        if self.defer("open"):
            return
        summary = self.highlighted
        if summary is not None:
            words = text_words(self.query_one("#search", Input).value)
            self.app.push_screen(SessionScreen(Path(summary.path), search=words))

    def action_resume(self) -> None:
        if self.defer("resume"):
            return
        summary = self.highlighted
        if summary is None:
            return
        if summary.store == "archive":
            ask_unarchive(self.app, Path(summary.path), summary.cwd)
        else:
            self.app.request_handoff(Path(summary.path), summary.cwd)

    def action_fork(self) -> None:
        if self.defer("fork"):
            return
        summary = self.highlighted
        if summary is None:
            return
        path = Path(summary.path)

        def confirmed(yes: bool | None) -> None:
            if yes:
                self.app.request_handoff(path, summary.cwd, fork=True)

        title = one_line(summary.name or summary.first_message or path.name)
        body = [
            "pi --fork starts a new session copied from this one, which is not changed:",
            title,
            PathText(path.name),
        ]
        modal = ConfirmModal("Fork this session in pi?", body, confirm_label="Fork in pi")
        self.app.push_screen(modal, callback=confirmed)

    def action_rename(self) -> None:
        if self.defer("rename"):
            return
        summary = self.highlighted
        if summary is not None:
            path = Path(summary.path)
            done = lambda note: self.refresh_paths([path], note)  # noqa: E731
            ask_name(self.app, path, summary.name or "", done)

    def action_trash(self) -> None:
        if self.defer("trash"):
            return
        summary = self.highlighted
        if summary is not None:
            path = Path(summary.path)
            ask_trash(self.app, path, summary.name or summary.first_message or path.name)

    def action_stats(self) -> None:
        """Usage of the sessions listed now (the current search, scope and named filter)."""
        from pitui.ui.screens.stats import StatsScreen

        catalog = self.app.catalog
        if catalog is None:
            return
        index_path = catalog.index.path
        folder = index_path.parent if index_path is not None else None
        summaries = [row.summary for row in self.rows]
        paths = [s.path for s in summaries]
        titles = {s.path: s.name or s.first_message for s in summaries}
        scope = "all sessions" if self.all_scope else "this folder"
        query = self.query_one("#search", Input).value
        if query:
            scope += f" · search: {query}"
        self.app.push_screen(StatsScreen(paths, scope, folder, titles))

    def action_trash_view(self) -> None:
        from pitui.ui.screens.trash_view import TrashViewScreen

        catalog = self.app.catalog
        self.app.push_screen(TrashViewScreen(catalog.root if catalog is not None else None))

    def action_pin(self) -> None:
        row = self._highlighted_row()
        if row is not None:
            toggle_pin(self.app, row, self._marks_changed)

    def action_tags(self) -> None:
        row = self._highlighted_row()
        if row is not None:
            ask_tags(self.app, row, self._marks_changed)

    def _highlighted_row(self) -> Any:
        table = self.query_one(SessionTable)
        return table.rows[table.cursor] if 0 <= table.cursor < len(table.rows) else None

    def _marks_changed(self, note: str) -> None:
        self.notify(note, markup=False)  # holds the tags as typed
        self.run_search()

    def action_export(self) -> None:
        summary = self.highlighted
        if summary is not None:
            title = summary.name or summary.first_message or Path(summary.path).stem
            ask_export(self, Path(summary.path), None, title, "the session's active branch")

    def refresh_paths(self, paths: list[Path], note: str | None = None) -> None:
        """Re-read these sessions into the catalog (after our own writes) and search again."""
        if note:
            self.notify(note)
        if self.app.catalog is not None:
            self._update_catalog(paths, [])

    def forget(self, path: Path) -> None:
        if self.app.catalog is not None:
            self._update_catalog([], [path])
