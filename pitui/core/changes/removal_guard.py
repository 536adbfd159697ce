"""May taking a session file away (archive, trash, prune, move) split it? Pi's next append
to a file taken from under it makes a new, headerless file at the old path.

The write checks say it first (`write_guard.activity_warning`: a recent change, a process
holding the file open for writing). But an idle pi holds nothing open and may not append for
minutes, so a pi running in the session's folder (`live.pi_processes`) counts too: it may be
writing the sessions of that folder changed since it started, and the newest one (a pi
resumed or started there and not yet written to). Where a pi's next line lands anyway, the
continuation is rejoined (`continuation`).

One guard answers for many sessions: the processes are read once, each folder's newest once.
"""

from __future__ import annotations

import os
from pathlib import Path

from pitui.core.catalog.scan.discovery import same_cwd
from pitui.core.changes.file_messages import shown
from pitui.core.changes.first_line import header_cwd
from pitui.core.changes.write_guard import activity_warning
from pitui.core.live.pi_processes import PiProcess, in_folder, running_pis

START_SLACK_SECONDS = 2.0  # a file changed this shortly before a pi started may be its own


class RemovalGuard:
    """`warning(path)`: why taking `path` away now may split the session, or None."""

    def __init__(self, pis: list[PiProcess] | None = None) -> None:
        self._pis = pis
        self._asked = pis is not None
        self._newest: dict[tuple[str, str], str | None] = {}

    def warning(
        self, path: str | os.PathLike[str], *, also_cwds: tuple[str, ...] = ()
    ) -> str | None:
        """`also_cwds`: other folders whose pis count (a moved project's new folder, where a
        pi running in it now has its cwd)."""
        found = activity_warning(path)
        if found is not None:
            return found
        path = Path(path).absolute()
        cwd = header_cwd(path)
        if cwd is None:
            return None
        there = in_folder(self.pis(), [cwd, *also_cwds])
        if not there or not self._may_write(path, cwd, there):
            return None
        pi = there[0]
        return (
            f"{shown(path.name)} may be the session {pi.describe()} is in (it runs in "
            f"{shown(pi.cwd)}; an idle pi writes again on its next message)"
        )

    def pis(self) -> list[PiProcess]:
        if not self._asked:
            self._pis, self._asked = running_pis(exclude=os.getpid()), True
        return self._pis or []

    def _may_write(self, path: Path, cwd: str, pis: list[PiProcess]) -> bool:
        try:
            changed = os.stat(path).st_mtime
        except OSError:
            return False
        starts = [p.started for p in pis if p.started is not None]
        if len(starts) < len(pis) or changed >= min(starts) - START_SLACK_SECONDS:
            return True
        return self.newest(path.parent, cwd) == str(path)

    def newest(self, folder: Path, cwd: str) -> str | None:
        """The last changed session of `cwd` in `folder`."""
        key = (str(folder), cwd)
        if key not in self._newest:
            self._newest[key] = _newest_of(folder, cwd)
        return self._newest[key]


def _newest_of(folder: Path, cwd: str) -> str | None:
    best: tuple[int, str] | None = None
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return None
    for entry in entries:
        if not entry.name.endswith(".jsonl"):
            continue
        try:
            if not entry.is_file(follow_symlinks=False):
                continue
            changed = entry.stat().st_mtime_ns
        except OSError:
            continue
        theirs = header_cwd(Path(entry.path))
        if theirs is not None and same_cwd(theirs, cwd) and (best is None or changed > best[0]):
            best = (changed, entry.path)
    return None if best is None else best[1]
