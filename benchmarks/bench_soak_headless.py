"""`bench_soak.py` in a minute: the app headless (Textual's `run_test`, 100x30) on a copy of
the generated store, lines appended to the newest session at `--rate` lines a second, where
its memory is (see `memprobe.py`) printed every `--every` seconds. The same code paths as
the soak in tmux (the watcher, the catalog's update, the picker's search, the preview), in
one process, so an experiment takes a minute or two.

    python benchmarks/bench_soak_headless.py [--sessions 1000] [--seconds 120] [--rate 50]
        [--pregrow 40000] [--off preview search secrets] [--memray OUT.bin]

`--pregrow N` appends N lines to the session first (the state of a long soak: 40,000 lines
make a 13 MB session, past the preview's 8 MB). `--off` leaves a part out (the preview's
reads, the picker's searches after changes, the credentials pass), to tell which one
allocates. `--memray` tracks allocations from the first line appended to the last
(`pip install memray`; then `memray stats` or `memray transform csv --temporary-allocations`).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import sys
import tempfile
import threading
import time
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_tui_launch as tui
import memprobe
from bench_soak import line, newest


def switch_off(parts: list[str]) -> None:
    if "preview" in parts:
        from pitui.ui.widgets.session_preview import SessionPreview

        SessionPreview._load_exchanges = lambda self, *args, **kwargs: None  # type: ignore[method-assign]
    if "search" in parts:
        from pitui.ui.screens.picker import PickerScreen

        def no_search(self: PickerScreen) -> None:
            self._changes_timer = None

        PickerScreen._search_after_changes = no_search  # type: ignore[method-assign]
    if "secrets" in parts:
        from pitui.ui.screens.picker_secrets import SecretsScan

        SecretsScan.look = lambda self, **kwargs: None  # type: ignore[method-assign]


def pregrow(target: Path, count: int) -> str:
    """Append `count` lines to `target`; the id of the last (the next line's parent)."""
    parent = json.loads(target.read_bytes().splitlines()[-1])["id"]
    with target.open("ab") as out:
        for n in range(count):
            out.write(line(10**7 + n, parent))
            parent = f"soak{10**7 + n:08x}"
    return parent


def report(libc: Any, start: float, lines: int) -> None:
    s = memprobe.sample(libc)
    print(f"{time.time() - start:6.0f} s  RSS {s['rss']:6.1f}  malloc used {s['malloc_used']:5.1f}"
          f" free {s['malloc_free']:5.1f} mmapped {s['malloc_mmapped']:4.1f}  SQLite "
          f"{s['sqlite']:5.1f} MB  blocks {s['pymalloc_blocks']:7d}  objects "
          f"{s['gc_objects']:6d}  lines {lines}", flush=True)  # fmt: skip


async def soak(args: argparse.Namespace, agent: Path, cache: Path, parent: str | None) -> None:
    from pitui.core.catalog.scan import discovery
    from pitui.ui.app import make_app

    app = make_app(sessions_root=discovery.sessions_root(), all_scope=True, cache_dir=cache)
    async with app.run_test(headless=True, size=(100, 30)):
        for _ in range(1200):  # the list, the scan and the text pass done first
            await asyncio.sleep(0.5)
            screen: Any = app.screen
            if getattr(screen, "scanned", False) and screen.search_indexing is None:
                break
        await asyncio.sleep(2)
        target = newest(agent / "sessions")
        parent = parent or json.loads(target.read_bytes().splitlines()[-1])["id"]
        stop, count = threading.Event(), [0]

        def writer(parent: str) -> None:
            with target.open("ab") as out:
                while not stop.is_set():
                    out.write(line(count[0], parent))
                    out.flush()
                    parent, count[0] = f"soak{count[0]:08x}", count[0] + 1
                    time.sleep(1 / args.rate)

        libc = memprobe._libc()
        tracking: AbstractContextManager[Any] = nullcontext()
        if args.memray:
            import memray  # a measuring tool, not a dependency

            tracking = memray.Tracker(args.memray)
        with tracking:
            start = time.time()
            report(libc, start, 0)
            thread = threading.Thread(target=writer, args=(parent,), daemon=True)
            thread.start()
            next_report = start + args.every
            while time.time() - start < args.seconds:
                await asyncio.sleep(0.2)
                if time.time() >= next_report:
                    next_report += args.every
                    report(libc, start, count[0])
            stop.set()
            thread.join()
        app.exit()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sessions", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--rate", type=float, default=50.0)
    parser.add_argument("--every", type=float, default=10.0)
    parser.add_argument("--pregrow", type=int, default=0)
    parser.add_argument("--off", nargs="*", default=[], choices=["preview", "search", "secrets"])
    parser.add_argument("--memray", default="")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="pitui-bench-soak-headless-"))
    try:
        agent, cache = work / "agent", work / "cache"
        shutil.copytree(tui.store(args.sessions) / "sessions", agent / "sessions")
        for name, folder in (("PI_CODING_AGENT_DIR", agent), ("PITUI_CACHE_DIR", cache),
                             ("PITUI_DATA_DIR", work / "data"),
                             ("PITUI_CONFIG_DIR", work / "config")):  # fmt: skip
            os.environ[name] = str(folder)
        parent = pregrow(newest(agent / "sessions"), args.pregrow) if args.pregrow else None
        switch_off(args.off)
        asyncio.run(soak(args, agent, cache, parent))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
