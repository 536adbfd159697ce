"""What a scope left out: a `--session-dir DIR` read without `--all` keeps only the sessions
started in this folder (Pi's `list(cwd)`), and so does the archive (`--archived`,
`in:archive`); the line says how many were left out and how to have them (a command prints
it, `commands/support/scope_notice.py`, or adds it to its problems)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pitui.core.catalog.catalog import Catalog

SESSION_FOLDER = "of the session folder"
ARCHIVE = "of the archive"


def left_out_line(count: int, which: str = "", of: str = SESSION_FOLDER) -> str | None:
    """The line for `count` left-out sessions (`which`: " with credentials"; `of`: where they
    are; None: none was left out)."""
    if count == 0:
        return None
    return (
        f"left out {count} session{'s' * (count != 1)}{which} {of} started in other folders "
        "than this one (--all includes them)"
    )


def left_out_of_catalog(
    catalog: Catalog, cwd: str, store: str, session_dir: str | None
) -> str | None:
    """The line for the sessions this folder's listing of a shared session dir, or of the
    archive, left out (None: none, or Pi's own folder for this cwd, which holds only its
    sessions). A scope, not a search: those a query would have matched there are among
    them."""
    if store != "archive" and (session_dir is None or store != "local"):
        return None
    everywhere = len(catalog.sessions(None, store))
    here = len(catalog.sessions(cwd, store))
    return left_out_line(everywhere - here, of=ARCHIVE if store == "archive" else SESSION_FOLDER)
