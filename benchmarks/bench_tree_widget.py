"""EntryTree on a 100,000-entry session: row build, first paint, key latency, folding, append.

Run: .venv/bin/python benchmarks/bench_tree_widget.py [N_ENTRIES]
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

from textual.app import App, ComposeResult

from pitui.core.rows.rows import TreeRows
from pitui.core.session.entry import Entry
from pitui.core.session.session import Session
from pitui.core.session.tree import SessionTree
from pitui.demo.generate import generate_large_session
from pitui.ui.widgets.entry_tree import EntryTree


class BenchApp(App[None]):
    def __init__(self, tree: SessionTree) -> None:
        super().__init__()
        self.session_tree = tree

    def compose(self) -> ComposeResult:
        yield EntryTree(self.session_tree)


def ms(seconds: float) -> str:
    return f"{seconds * 1000:9.2f} ms"


async def key_latency(pilot: object, key: str, times: int) -> tuple[float, float]:
    samples = []
    for _ in range(times):
        start = time.perf_counter()
        await pilot.press(key)  # type: ignore[attr-defined]
        await pilot.pause()  # type: ignore[attr-defined]
        samples.append(time.perf_counter() - start)
    return statistics.median(samples), max(samples)


async def ui_bench(tree: SessionTree, results: list[tuple[str, str]]) -> None:
    start = time.perf_counter()
    app = BenchApp(tree)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        results.append(("first paint (mount + load + paint)", ms(time.perf_counter() - start)))
        widget = app.query_one(EntryTree)
        await pilot.press("home")
        median, worst = await key_latency(pilot, "x", 100)
        results.append(("unbound key x100 (Pilot baseline)", f"{ms(median)} / {ms(worst)}"))
        for key in ("down", "pagedown"):
            median, worst = await key_latency(pilot, key, 100)
            results.append((f"key {key} x100: median / max", f"{ms(median)} / {ms(worst)}"))
        median, worst = await key_latency(pilot, "up", 100)
        results.append(("key up x100: median / max", f"{ms(median)} / {ms(worst)}"))
        await fold_bench(pilot, widget, results)
        await append_bench(pilot, widget, tree, results)


async def fold_bench(pilot: object, widget: EntryTree, results: list[tuple[str, str]]) -> None:
    for key, label in (("z", "fold all (z)"), ("Z", "unfold all (Z)")):
        start = time.perf_counter()
        await pilot.press(key)  # type: ignore[attr-defined]
        await pilot.pause()  # type: ignore[attr-defined]
        results.append((f"{label} -> {len(widget.rows)} rows", ms(time.perf_counter() - start)))
    await pilot.press("home")  # type: ignore[attr-defined]
    start = time.perf_counter()
    await pilot.press("left")  # type: ignore[attr-defined]  # fold the root
    await pilot.pause()  # type: ignore[attr-defined]
    results.append(
        (f"fold root (left) -> {len(widget.rows)} rows", ms(time.perf_counter() - start))
    )
    start = time.perf_counter()
    await pilot.press("right")  # type: ignore[attr-defined]
    await pilot.pause()  # type: ignore[attr-defined]
    results.append(
        (f"unfold root (right) -> {len(widget.rows)} rows", ms(time.perf_counter() - start))
    )
    start = time.perf_counter()
    await pilot.press("ctrl+o")  # type: ignore[attr-defined]
    await pilot.pause()  # type: ignore[attr-defined]
    results.append(("filter cycle (ctrl+o) rebuild", ms(time.perf_counter() - start)))
    await pilot.press(*["ctrl+o"] * 4)  # type: ignore[attr-defined]  # back to default


async def append_bench(
    pilot: object, widget: EntryTree, tree: SessionTree, results: list[tuple[str, str]]
) -> None:
    await pilot.press("end")  # type: ignore[attr-defined]
    leaf = tree.leaf
    assert leaf is not None
    raw = {
        "type": "message",
        "id": "bench0001",
        "parentId": leaf.id,
        "timestamp": "2030-01-01T00:00:00.000Z",
        "message": {"role": "user", "content": "appended"},
    }
    entry = Entry.from_raw(raw, len(tree.entries) + 2, 0, len(tree.entries))
    start = time.perf_counter()
    tree.extend([entry])
    widget.append([entry])
    model_time = time.perf_counter() - start
    await pilot.pause()  # type: ignore[attr-defined]
    total = time.perf_counter() - start
    results.append(("append 1 entry: tree+rows / to frame", f"{ms(model_time)} / {ms(total)}"))


def search_bench(rows: TreeRows, results: list[tuple[str, str]]) -> None:
    """Typing `timeout` letter by letter, as the session screen's worker searches: the first
    letter prepares every row's text; the next ones look only among the last matches."""
    start = time.perf_counter()
    for end in range(1, len("timeout") + 1):
        hits = rows.search("timeout"[:end])
        if end == 1:
            results.append(
                (f"search 't' (first) -> {len(hits):,} rows", ms(time.perf_counter() - start))
            )
    results.append((f"type 'timeout' -> {len(hits):,} rows", ms(time.perf_counter() - start)))
    start = time.perf_counter()
    hits = rows.search("retry logic")
    results.append((f"search 'retry logic' -> {len(hits):,}", ms(time.perf_counter() - start)))


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    results: list[tuple[str, str]] = []
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "large.jsonl"
        start = time.perf_counter()
        generate_large_session(path, n)
        results.append((f"generate {n:,} entries", ms(time.perf_counter() - start)))
        start = time.perf_counter()
        session = Session(path)
        results.append(("load Session (read + tree)", ms(time.perf_counter() - start)))
    start = time.perf_counter()
    rows = TreeRows(session.tree)
    results.append((f"build TreeRows -> {len(rows):,} rows", ms(time.perf_counter() - start)))
    start = time.perf_counter()
    TreeRows(session.tree, "all")
    results.append(("build TreeRows filter=all", ms(time.perf_counter() - start)))
    search_bench(rows, results)
    asyncio.run(ui_bench(session.tree, results))
    width = max(len(name) for name, _ in results)
    print(f"{'measure':<{width}}  time")
    for name, value in results:
        print(f"{name:<{width}}  {value}")


if __name__ == "__main__":
    main()
