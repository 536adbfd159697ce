"""What the picker does with a listed session (`summary`, a catalog summary): open, resume,
fork, rename, trash and export it; and the screens of the listed sessions' usage and of the
trash. Each is given what it acts on and the app that shows what follows."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from textual.screen import Screen

from pitui.core.catalog.search.query import text_words
from pitui.core.catalog.summary import SessionSummary
from pitui.core.rows.safe_text import one_line
from pitui.ui.app_base import PituiAppBase
from pitui.ui.handoff import ask_unarchive
from pitui.ui.modals.confirm import ConfirmModal
from pitui.ui.modals.dialog_body import PathText
from pitui.ui.modals.export import ask_export
from pitui.ui.session_actions import ask_name, ask_trash


def open_session(app: PituiAppBase, summary: SessionSummary, query: str) -> None:
    """The session screen, its matches of the search's words marked."""
    # deferred: the session screen, ~0.1 s off the first frame
    from pitui.ui.screens.session import SessionScreen

    app.push_screen(SessionScreen(Path(summary.path), search=text_words(query)))


def resume(app: PituiAppBase, summary: SessionSummary) -> None:
    catalog = app.catalog
    if summary.store == "archive" and catalog is not None and catalog.archive_dir is not None:
        ask_unarchive(app, Path(summary.path), summary.cwd, catalog.root, catalog.archive_dir)
    else:
        app.request_handoff(Path(summary.path), summary.cwd)


def fork(app: PituiAppBase, summary: SessionSummary) -> None:
    """`pi --fork` on the session, once confirmed."""
    path = Path(summary.path)

    def confirmed(yes: bool | None) -> None:
        if yes:
            app.request_handoff(path, summary.cwd, fork=True)

    body: list[str | PathText] = [
        "pi --fork starts a new session copied from this one, which is not changed:",
        one_line(summary.name or summary.first_message or path.name),
        PathText(path.name),
    ]
    modal = ConfirmModal("Fork this session in pi?", body, confirm_label="Fork in pi")
    app.push_screen(modal, callback=confirmed)


def rename(
    app: PituiAppBase, summary: SessionSummary, renamed: Callable[[Path, str], None]
) -> None:
    """Ask for the session's name; `renamed(path, note)` once written."""
    path = Path(summary.path)
    ask_name(app, path, summary.name or "", lambda note: renamed(path, note))


def trash(app: PituiAppBase, summary: SessionSummary) -> None:
    path = Path(summary.path)
    ask_trash(app, path, summary.name or summary.first_message or path.name)


def export(screen: Screen[None], summary: SessionSummary) -> None:
    """The export dialog for the session's active branch (its worker runs on `screen`)."""
    title = summary.name or summary.first_message or Path(summary.path).stem
    ask_export(screen, Path(summary.path), None, title, "the session's active branch")


def show_stats(
    app: PituiAppBase,
    summaries: Sequence[SessionSummary],
    all_scope: bool,
    query: str,
    scope: str | None = None,
) -> None:
    """Usage of the sessions listed (those of the current search, scope and named filter);
    `scope` names them when they are not this folder's or all sessions (the archive)."""
    # deferred: the plots, ~0.12 s off the first frame
    from pitui.ui.screens.stats import StatsScreen

    index_path = app.catalog.index.path if app.catalog is not None else None
    folder = index_path.parent if index_path is not None else None
    paths = [s.path for s in summaries]
    titles = {s.path: s.name or s.first_message for s in summaries}
    scope = scope or ("all sessions" if all_scope else "this folder")
    if query:
        scope += f" · search: {query}"
    app.push_screen(StatsScreen(paths, scope, folder, titles))


def show_trash(app: PituiAppBase) -> None:
    # deferred: the trash view, ~7 ms off the first frame
    from pitui.ui.screens.trash_view import TrashViewScreen

    catalog = app.catalog
    app.push_screen(TrashViewScreen(catalog.root if catalog is not None else None))
