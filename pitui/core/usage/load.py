"""The usage rows of a scope's sessions, from the usage cache."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from pitui.core.usage.cache import Row, SessionInfo, UsageCache, cache_dir


def load_usage(
    files: Iterable[str],
    accepts: Callable[[str], bool] | None = None,
    folder: Path | None = None,
    no_cache: bool = False,
    whole_folders: bool = False,
) -> tuple[dict[str, SessionInfo], list[Row], str | None]:
    """(sessions, their rows, a notice about the cache) for `files` whose header cwd
    `accepts` takes; `folder` defaults to the catalog's cache folder. `whole_folders`: the
    files are a folder listing (see `UsageCache.refresh`), not a search's answer."""
    cache = UsageCache(None if no_cache else (folder or cache_dir()))
    try:
        infos, rows = cache.refresh(files, whole_folders)
    finally:
        cache.close()
    if accepts is not None:
        infos = {p: i for p, i in infos.items() if accepts(i.cwd)}
        rows = [r for r in rows if r[0] in infos]
    return infos, rows, cache.notice
