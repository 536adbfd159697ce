"""Watching the session roots for changes: `watchfiles` (Rust notify) in a daemon thread.

`SessionWatcher` reports debounced `ChangeBatch`es: the `.jsonl` files that changed or
appeared, the ones that left, and directories that appeared (new project folders: scan them).
When native watching cannot start or fails (inotify limits, ENOSPC/EMFILE, no inotify), or
when `PITUI_FORCE_POLLING=1`, it switches to watchfiles' polling and says so once in
`ChangeBatch.notice`. Roots that do not exist yet are checked for until they appear.

Pure Python: no Textual import.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

import watchfiles

log = logging.getLogger(__name__)

SESSION_SUFFIX = ".jsonl"
FORCE_POLLING_ENV = "PITUI_FORCE_POLLING"
ROOT_CHECK_MS = 500  # how often missing / vanished roots are checked
TICK_MS = 100  # the watch loop wakes at least this often when idle (native mode)
RECENT_WINDOW_S = 2.5  # polling: re-stat recently changed files (notify polls mtime in seconds)
ERROR_RETRY_S = 1.0

# inode, size, mtime_ns, ctime_ns (an edit in place may keep the size and set the mtime back)
Signature = tuple[int, int, int, int]


@dataclass(slots=True)
class ChangeBatch:
    """One debounced set of changes. Each path is in at most one of the sets.

    `changed`: `.jsonl` files written or created, and directories that appeared (new
    project folders, roots that came into existence, or roots to rescan after a switch to
    polling). `deleted`: `.jsonl` files gone (deleted or moved away) and vanished
    suffix-less paths (likely folders). `notice`: a message for the user, set once when the
    watcher falls back to polling.
    """

    changed: set[Path] = field(default_factory=set)
    deleted: set[Path] = field(default_factory=set)
    notice: str | None = None

    def __bool__(self) -> bool:
        return bool(self.changed or self.deleted or self.notice)


class _Restart(Exception):
    """The set of existing roots changed: watch again."""


def _env_force_polling() -> bool:
    return os.environ.get(FORCE_POLLING_ENV, "").strip().lower() not in ("", "0", "false", "no")


def _keep(change: watchfiles.Change, path: str) -> bool:
    """watchfiles filter: session files, new directories, and vanished suffix-less paths."""
    if path.endswith(SESSION_SUFFIX):
        return True
    if change == watchfiles.Change.added:
        return os.path.isdir(path)
    return change == watchfiles.Change.deleted and not Path(path).suffix


def file_signature(path: Path) -> Signature | None:
    """(inode, size, mtime_ns, ctime_ns) of a file, or None if it cannot be stat'ed."""
    try:
        stat = path.stat()
    except OSError:
        return None
    return (stat.st_ino, stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns)


def _outermost(paths: Iterable[Path]) -> list[Path]:
    """Drop paths inside another path of the list (watching is recursive)."""
    unique = sorted(set(paths), key=lambda p: len(p.parts))
    kept: list[Path] = []
    for path in unique:
        if not any(path.is_relative_to(other) for other in kept):
            kept.append(path)
    return kept


def classify(paths: Iterable[str | Path]) -> ChangeBatch:
    """Build a batch from raw changed paths by their state now (exists -> changed)."""
    batch = ChangeBatch()
    for raw in paths:
        path = Path(raw)
        (batch.changed if os.path.lexists(path) else batch.deleted).add(path)
    return batch


class SessionWatcher:
    """Watches `roots` recursively in a daemon thread; calls `on_changes` with batches.

    `on_changes` runs in the watcher thread; it must not block for long (the next batch
    waits for it, nothing is lost meanwhile). Exceptions it raises are logged.
    """

    def __init__(
        self,
        roots: list[Path],
        on_changes: Callable[[ChangeBatch], None],
        *,
        debounce_ms: int = 50,
        force_polling: bool | None = None,
        poll_delay_ms: int = 300,
    ) -> None:
        self._roots = [Path(root).absolute() for root in roots]
        self._on_changes = on_changes
        self.debounce_ms = max(1, debounce_ms)
        self.poll_delay_ms = poll_delay_ms
        self.polling = bool(force_polling) or _env_force_polling()
        self._forced_reason = self._force_reason(force_polling)
        self.notice: str | None = None
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._thread: threading.Thread | None = None
        self._roots_lock = threading.Lock()
        self._recent: dict[Path, tuple[Signature | None, float]] = {}

    # -- public ------------------------------------------------------------------------

    @property
    def roots(self) -> list[Path]:
        with self._roots_lock:
            return list(self._roots)

    def add_root(self, root: Path) -> None:
        """Watch one more root (the watch restarts within ROOT_CHECK_MS)."""
        root = Path(root).absolute()
        with self._roots_lock:
            if root not in self._roots:
                self._roots.append(root)
                self._ready.clear()

    def start(self) -> None:
        if self._thread is not None:
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="pitui-watcher", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        thread, self._thread = self._thread, None
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)

    def wait_ready(self, timeout: float = 10.0) -> bool:
        """Wait until the watch is established (changes from then on are seen)."""
        return self._ready.wait(timeout)

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def __enter__(self) -> SessionWatcher:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- thread ------------------------------------------------------------------------

    def _force_reason(self, force_polling: bool | None) -> str | None:
        if force_polling:
            return "force_polling=True"
        if _env_force_polling():
            return f"{FORCE_POLLING_ENV}={os.environ.get(FORCE_POLLING_ENV)}"
        return None

    def _run(self) -> None:
        if self._forced_reason:
            self._announce_polling(self._forced_reason, rescan=[])
        watching: list[Path] | None = None
        while not self._stop.is_set():
            previous, watching = watching, self._existing_roots()
            appeared = [root for root in watching if previous is not None and root not in previous]
            if appeared:
                self._emit(ChangeBatch(changed=set(appeared)))
            if not watching:
                self._ready.set()
                self._stop.wait(ROOT_CHECK_MS / 1000)
                continue
            self._watch_safely(watching)

    def _existing_roots(self) -> list[Path]:
        return _outermost(root for root in self.roots if root.is_dir())

    def _watch_safely(self, roots: list[Path]) -> None:
        ran = [False]
        try:
            self._watch(roots, ran)
        except _Restart:
            return
        except (OSError, RuntimeError) as error:
            if self._stop.is_set() or any(not root.is_dir() for root in roots):
                return  # a root vanished under the watcher: the loop re-checks the roots
            if not self.polling:
                self._announce_polling(_describe(error), rescan=roots if ran[0] else [])
                return
            log.warning("file watching failed (%s); retrying", _describe(error))
            self._stop.wait(ERROR_RETRY_S)

    def _watch(self, roots: list[Path], ran: list[bool]) -> None:
        next_check = time.monotonic() + ROOT_CHECK_MS / 1000
        for changes in watchfiles.watch(
            *roots,
            watch_filter=_keep,
            debounce=max(4 * self.debounce_ms, 200),
            step=self.debounce_ms,
            stop_event=self._stop,
            rust_timeout=self.poll_delay_ms if self.polling else TICK_MS,
            yield_on_timeout=True,
            raise_interrupt=False,
            force_polling=True if self.polling else None,
            poll_delay_ms=self.poll_delay_ms,
            recursive=True,
            ignore_permission_denied=True,
        ):
            if not ran[0]:
                ran[0] = True
                self._started(roots)
            batch = classify(path for _, path in changes)
            if self.polling:
                self._check_recent(batch)
            if batch:
                self._emit(batch)
            if time.monotonic() >= next_check:
                next_check = time.monotonic() + ROOT_CHECK_MS / 1000
                if self._existing_roots() != roots:
                    raise _Restart

    def _started(self, roots: list[Path]) -> None:
        if self.polling:
            self._seed_recent(roots)
        self._ready.set()

    def _seed_recent(self, roots: list[Path]) -> None:
        """Polling only: files modified in the last seconds may change again unseen within
        the second notify's first scan saw: check them like recently changed files."""
        now, wall = time.monotonic(), time.time()
        for root in roots:
            for folder, _dirs, files in os.walk(root):
                for name in files:
                    path = Path(folder, name)
                    if name.endswith(SESSION_SUFFIX) and _modified_since(path, wall - 2):
                        self._recent[path] = (None, now)

    def _announce_polling(self, reason: str, rescan: list[Path]) -> None:
        self.polling = True
        self.notice = (
            f"native file watching unavailable ({reason}); "
            f"polling every {_effective_poll_delay(self.poll_delay_ms)} ms"
        )
        log.warning("%s", self.notice)
        self._emit(ChangeBatch(changed=set(rescan), notice=self.notice))

    def _check_recent(self, batch: ChangeBatch) -> None:
        """Polling only: notify compares mtimes in whole seconds, so appends within the
        second of the last poll go unseen. Re-stat recently changed files to catch them."""
        now = time.monotonic()
        for path in batch.changed:
            if path.suffix == SESSION_SUFFIX:
                self._recent[path] = (file_signature(path), now)
        for path, (seen, since) in list(self._recent.items()):
            if path in batch.changed:
                continue
            current = file_signature(path)
            if current != seen:
                (batch.changed if current else batch.deleted).add(path)
                self._recent[path] = (current, now)
            elif now - since > RECENT_WINDOW_S:
                del self._recent[path]

    def _emit(self, batch: ChangeBatch) -> None:
        try:
            self._on_changes(batch)
        except Exception:
            log.exception("file change handler failed")


def _modified_since(path: Path, wall_time: float) -> bool:
    try:
        return path.stat().st_mtime >= wall_time
    except OSError:
        return False


def _describe(error: BaseException) -> str:
    text = str(error) or type(error).__name__
    if isinstance(error, OSError) and error.errno is not None:
        name = os.strerror(error.errno)
        return f"{text}" if name in text else f"{text}: {name}"
    return text


def _effective_poll_delay(poll_delay_ms: int) -> int:
    """watchfiles lets WATCHFILES_POLL_DELAY_MS override the delay; report what is used."""
    env = os.environ.get("WATCHFILES_POLL_DELAY_MS", "")
    return int(env) if env.isdigit() else poll_delay_ms
