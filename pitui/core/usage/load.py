"""The usage rows of a scope's sessions, from the usage cache."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, NamedTuple

from pitui.core.usage.cache import PATH, Row, SessionInfo, UsageCache
from pitui.core.user_dirs import cache_dir


class Usage(NamedTuple):
    """Sessions in scope, their rows, a notice about the cache, and the lineage of every
    session file the cache has read (`groups.counted_rows`)."""

    infos: dict[str, SessionInfo]
    rows: list[Row]
    notice: str | None
    lineage: dict[str, list[Any]]
    cache_stat: Any = None  # os.stat_result of the cache file the lineage was read from
    left_out: int = 0  # sessions whose header cwd `accepts` refused


def load_usage(
    files: Iterable[str],
    accepts: Callable[[str], bool] | None = None,
    folder: Path | None = None,
    no_cache: bool = False,
    whole_folders: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> Usage:
    """(sessions, their rows, a notice about the cache) for `files` whose header cwd
    `accepts` takes; `folder` defaults to the catalog's cache folder. `whole_folders`: the
    files are a folder listing (see `UsageCache.refresh`), not a search's answer;
    `progress(done, total)`: as `UsageCache.refresh`'s."""
    cache = UsageCache(None if no_cache else (folder or cache_dir()))
    try:
        infos, rows = cache.refresh(files, whole_folders, progress)
    finally:
        cache.close()
    every = len(infos)
    if accepts is not None:
        infos = {p: i for p, i in infos.items() if accepts(i.cwd)}
        rows = [r for r in rows if r[PATH] in infos]
    return Usage(infos, rows, cache.notice, cache.lineage, cache.file_stat, every - len(infos))
