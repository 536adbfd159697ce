"""The remotes' mirrors as a catalog lists them (`Mirror` stores), and what a listing says
about a mirror that is not fresh."""

from __future__ import annotations

from pitui.core.catalog.scan.discovery import Mirror
from pitui.core.catalog.scope import WITH_REMOTES
from pitui.core.errors import UsageError
from pitui.core.remotes.config import Remote, load_remotes
from pitui.core.remotes.mirror import age_text, last_failure, mirror_dir
from pitui.core.rows.safe_text import one_line

LOCAL_STORES = ("local", "archive")


def mirror_of(remote: Remote) -> Mirror:
    return Mirror(remote.name, mirror_dir(remote.name).absolute(), remote.sessions_dir)


def mirrors_of(store: str, problems: list[str]) -> list[Mirror]:
    """The mirrors a listing of `store` holds: every remote's for "all" and `WITH_REMOTES`
    (all sessions once a remote is added), the named remote's (an unknown name is refused),
    none for a local store. A mirror never synced, or whose last sync failed, is said in
    `problems` with its age."""
    if store in LOCAL_STORES:
        return []
    remotes = load_remotes()
    every = store in ("all", WITH_REMOTES)
    if not every and store not in remotes:
        raise UsageError(f"no remote is named {one_line(store)} (pitui remote list)")
    chosen = list(remotes.values()) if every else [remotes[store]]
    for remote in chosen:
        failure = last_failure(remote.name)
        if failure is not None:
            problems.append(
                f"{remote.name}: {one_line(failure)} (listing its mirror, {age_text(remote.name)})"
            )
        elif age_text(remote.name) == "never synced":
            problems.append(f"{remote.name}: never synced (pitui sync {remote.name})")
    return [mirror_of(remote) for remote in chosen]
