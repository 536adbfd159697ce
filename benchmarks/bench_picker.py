"""The picker with many sessions: key-to-repaint latency of the search box and the list.

Run: .venv/bin/python benchmarks/bench_picker.py [N ...]   (default: 1000 5000)

A store of N generated sessions (`generate_store(root, N, 20)`), the app built as the CLI
builds it (all scope, no watcher, warm index), driven by Pilot in headless mode. A frame is
"painted" when the screen hands a compositor update to the app (`App._display`), which is
where the widgets' lines have been rendered.

- type: one key in the search box (alternately "e" and backspace, each answered by a search
  listing most sessions) until the table is repainted with the answer. This includes the
  picker's typing debounce (`SEARCH_DELAY`), reported apart, and the search in its worker.
- answer -> repaint: from the search answer reaching the picker to the repainted frame (the
  table's share: replacing the rows and painting them).
- echo: the key to the first frame (the search box shows the character).
- down/up, pagedown/pageup, end/home in the list: key to frame.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pitui.core.catalog.catalog import Catalog
from pitui.demo.generate import generate_store
from pitui.ui.app import make_app
from pitui.ui.screens import picker as picker_module
from pitui.ui.screens.picker import PickerScreen

SIZE = (180, 45)
NOW = datetime(2026, 6, 1, tzinfo=UTC)
TYPED = 20  # keystrokes in the search box
MOVES = 30  # keys in the list


class Probe:
    """Timestamps of frames and of the picker's search answers."""

    def __init__(self) -> None:
        self.frames: list[float] = []
        self.answers: list[tuple[float, float]] = []  # (answer arrived, rows replaced)

    def frame_after(self, moment: float) -> float | None:
        return next((t for t in self.frames if t >= moment), None)


def install(app: Any, probe: Probe) -> None:
    display = app._display

    def timed_display(screen: Any, renderable: Any) -> None:
        display(screen, renderable)
        if renderable is not None:
            probe.frames.append(time.perf_counter())

    app._display = timed_display
    answer = PickerScreen.on_search_done

    def timed_answer(self: PickerScreen, message: Any) -> None:
        start = time.perf_counter()
        answer(self, message)
        probe.answers.append((start, time.perf_counter()))

    PickerScreen.on_search_done = timed_answer  # type: ignore[method-assign]


async def until(condition: Any, timeout: float = 30.0) -> None:
    end = time.perf_counter() + timeout
    while not condition():
        if time.perf_counter() > end:
            raise TimeoutError
        await asyncio.sleep(0.002)


async def typing(pilot: Any, picker: PickerScreen, probe: Probe) -> dict[str, list[float]]:
    found: dict[str, list[float]] = {"type": [], "answer": [], "echo": [], "rows": []}
    for i in range(TYPED):
        key = "e" if i % 2 == 0 else "backspace"
        seen = len(probe.answers)
        start = time.perf_counter()
        await pilot.press(key)
        await until(
            lambda n=seen: len(probe.answers) > n and probe.frame_after(probe.answers[-1][1])
        )
        arrived, replaced = probe.answers[-1]
        painted = probe.frame_after(replaced)
        assert painted is not None
        echo = probe.frame_after(start)
        found["type"].append(painted - start)
        found["answer"].append(painted - arrived)
        found["echo"].append((echo or painted) - start)
        found["rows"].append(len(picker.rows))
        await asyncio.sleep(0.05)
    return found


async def moving(pilot: Any, probe: Probe, keys: tuple[str, str]) -> list[float]:
    """Each key moves the cursor (back and forth: never stuck at an end)."""
    samples = []
    for i in range(MOVES):
        key = keys[i % 2]
        start = time.perf_counter()
        await pilot.press(key)
        await until(lambda s=start: probe.frame_after(s) is not None, 3)
        frame = probe.frame_after(start)
        assert frame is not None
        samples.append(frame - start)
        await asyncio.sleep(0.01)
    return samples


def line(label: str, samples: list[float]) -> str:
    median, worst = statistics.median(samples) * 1000, max(samples) * 1000
    return f"  {label:<34} median {median:7.1f} ms   max {worst:7.1f} ms"


async def run(n: int, root: Path, cache: Path) -> None:
    app = make_app(sessions_root=root, all_scope=True, watch=False, cache_dir=cache, now=NOW)
    probe = Probe()
    install(app, probe)
    async with app.run_test(size=SIZE) as pilot:
        picker = app.screen
        assert isinstance(picker, PickerScreen)
        await until(lambda: picker.scanned and len(picker.rows) >= n)
        await pilot.pause(0.3)
        found = await typing(pilot, picker, probe)
        rows = sorted(set(found["rows"]))
        print(f"{n} sessions (answers list {rows[0]}..{rows[-1]} rows):")
        delay = picker_module.SEARCH_DELAY * 1000
        print(line(f"type -> table repainted (debounce {delay:.0f})", found["type"]))
        print(line("answer -> table repainted", found["answer"]))
        print(line("type -> echo frame", found["echo"]))
        assert not picker.query_one("#search").value  # typing ended on a backspace
        await pilot.press("down")  # into the list
        for keys in (("down", "up"), ("pagedown", "pageup"), ("end", "home")):
            print(line(f"list: {' / '.join(keys)}", await moving(pilot, probe, keys)))


def main() -> None:
    sizes = [int(a) for a in sys.argv[1:]] or [1000, 5000]
    for n in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            root, cache = Path(tmp) / "sessions", Path(tmp) / "cache"
            generate_store(root, n, 20)
            with Catalog(root, cache_dir=cache) as catalog:  # a warm index, as on a second run
                catalog.scan()
            asyncio.run(run(n, root, cache))


if __name__ == "__main__":
    main()
