"""Live watching benchmarks (issue 5): latency, cost per event, concurrent appends.

    .venv/bin/python benchmarks/bench_watch.py            # full run (about 1.5 minutes)
    .venv/bin/python benchmarks/bench_watch.py --quick    # smaller sizes

1. Latency: a writer process stamps `time.time()` in each line; a LiveSession subscriber
   receives the entry through the real watcher. Median and p99 (target <= 100 / 300 ms).
2. Cost per event: `LiveSession.apply_change()` after appending one line to a 100 MB
   session vs a 10 KB one (target: ratio <= 2).
3. Concurrent: N sessions x 100 lines/s x T s from writer processes; every line must arrive,
   in order, once; the watching process's CPU time (all its threads: Rust notify, watcher,
   refreshes) over the wall time (target < 1 core).
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pitui.core.live.live import EntriesAppended, LiveSession, LiveStore, SessionEvent
from pitui.demo.generate import generate_large_session

# Appends `count` entry lines to each path at `rate` lines/s per path, stamping time.time().
WRITER = r"""
import json, sys, time
paths, first, count, rate = json.loads(sys.stdin.readline())
handles = [open(p, "ab", buffering=0) for p in paths]
start = time.monotonic()
for i in range(first, first + count):
    for k, handle in enumerate(handles):
        line = {"type": "message", "id": f"{i:08x}", "parentId": f"{i - 1:08x}" if i else None,
                "timestamp": "2026-01-01T00:00:00.000Z", "seq": i, "stamp": time.time(),
                "message": {"role": "user", "content": f"line {i} of session {k}"}}
        handle.write((json.dumps(line, separators=(",", ":")) + "\n").encode())
    delay = start + (i - first + 1) / rate - time.monotonic()
    if delay > 0:
        time.sleep(delay)
"""

HEADER = {
    "type": "session",
    "version": 3,
    "id": "bench",
    "timestamp": "2026-01-01T00:00:00.000Z",
    "cwd": "/home/dev/bench",
}


def start_writer(paths: list[Path], first: int, count: int, rate: float) -> subprocess.Popen[str]:
    writer = subprocess.Popen([sys.executable, "-c", WRITER], stdin=subprocess.PIPE, text=True)
    assert writer.stdin is not None
    writer.stdin.write(json.dumps([[str(p) for p in paths], first, count, rate]) + "\n")
    writer.stdin.close()
    return writer


def new_session(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(HEADER | {"id": path.stem}) + "\n")
    return path


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


class Arrivals:
    """Records every appended entry's seq and latency (receive time - writer stamp)."""

    def __init__(self) -> None:
        self.seqs: list[int] = []
        self.latencies: list[float] = []
        self.lock = threading.Lock()

    def __call__(self, event: SessionEvent) -> None:
        now = time.time()
        if isinstance(event, EntriesAppended):
            with self.lock:
                for entry in event.entries:
                    self.seqs.append(entry.raw["seq"])
                    self.latencies.append(now - entry.raw["stamp"])


def wait_for(predicate: Callable[[], bool], deadline: float) -> bool:
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.02)
    return False


# -- 1. latency ------------------------------------------------------------------------------


def bench_latency(tmp: Path, count: int) -> dict[str, Any]:
    root = tmp / "latency"
    path = new_session(root / "--bench--" / "latency.jsonl")
    with LiveStore([root]) as store:
        store.wait_ready()
        arrivals = Arrivals()
        store.open(path).subscribe(arrivals)
        start_writer([path], 0, count, 20).wait()
        wait_for(lambda: len(arrivals.seqs) >= count, 30)
    ms = [x * 1000 for x in arrivals.latencies]
    return {
        "appends": count,
        "arrived": len(ms),
        "median_ms": statistics.median(ms),
        "p99_ms": percentile(ms, 0.99),
        "max_ms": max(ms),
    }


# -- 2. cost per event -----------------------------------------------------------------------


def one_line(i: int) -> bytes:
    entry = {
        "type": "message",
        "id": f"c{i:07x}",
        "parentId": None,
        "timestamp": "2026-01-01T00:00:00.000Z",
        "message": {"role": "user", "content": f"one more line {i}"},
    }
    return (json.dumps(entry, separators=(",", ":")) + "\n").encode()


def append_cost(path: Path, rounds: int) -> tuple[float, float, float]:
    """(load seconds, median and mean ms of apply_change after a one-line append)."""
    started = time.perf_counter()
    live = LiveSession(path)
    load = time.perf_counter() - started
    costs: list[float] = []
    with open(path, "ab", buffering=0) as handle:
        for i in range(rounds):
            handle.write(one_line(i))
            started = time.perf_counter()
            events = live.apply_change()
            costs.append((time.perf_counter() - started) * 1000)
            assert len(events) == 1 and len(events[0].entries) == 1  # type: ignore[union-attr]
    return load, statistics.median(costs), statistics.fmean(costs)


def bench_cost(tmp: Path, big_mb: int, rounds: int) -> dict[str, Any]:
    small = new_session(tmp / "small.jsonl")
    with open(small, "ab") as handle:
        for i in range(10 * 1024 // len(one_line(0))):
            handle.write(one_line(10_000_000 + i))
    big = generate_large_session(tmp / "big.jsonl", big_mb * 1024 * 1024 // 1150)
    results: dict[str, Any] = {}
    for name, path in (("small", small), ("big", big)):
        size_mb = path.stat().st_size / 1e6
        load, median, mean = append_cost(path, rounds)
        results[name] = {
            "size_mb": size_mb,
            "load_s": load,
            "median_ms": median,
            "mean_ms": mean,
        }
    results["ratio"] = results["big"]["median_ms"] / results["small"]["median_ms"]
    return results


# -- 3. concurrent appends -------------------------------------------------------------------


def bench_concurrent(tmp: Path, sessions: int, seconds: int, rate: int) -> dict[str, Any]:
    root = tmp / "concurrent"
    paths = [new_session(root / f"--p{k % 5}--" / f"s{k:02d}.jsonl") for k in range(sessions)]
    count = seconds * rate
    with LiveStore([root]) as store:
        store.wait_ready()
        arrivals = [Arrivals() for _ in paths]
        for path, arrival in zip(paths, arrivals, strict=True):
            store.open(path).subscribe(arrival)
        cpu0, wall0 = _cpu_seconds(), time.monotonic()
        groups = [paths[k : k + 10] for k in range(0, sessions, 10)]
        writers = [start_writer(group, 0, count, rate) for group in groups]
        for writer in writers:
            writer.wait()
        complete = wait_for(lambda: all(len(a.seqs) >= count for a in arrivals), 60)
        cpu, wall = _cpu_seconds() - cpu0, time.monotonic() - wall0
    in_order = all(a.seqs == list(range(count)) for a in arrivals)
    latencies = [x * 1000 for a in arrivals for x in a.latencies]
    return {
        "sessions": sessions,
        "lines_each": count,
        "complete": complete,
        "in_order_once": in_order,
        "wall_s": wall,
        "cpu_s": cpu,
        "cores": cpu / wall,
        "median_ms": statistics.median(latencies),
        "p99_ms": percentile(latencies, 0.99),
    }


def _cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


# -- main ------------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes")
    args = parser.parse_args()
    latency_n, big_mb, seconds = (100, 10, 5) if args.quick else (300, 100, 30)
    with tempfile.TemporaryDirectory(prefix="pitui-bench-watch-") as name:
        tmp = Path(name)
        latency = bench_latency(tmp, latency_n)
        cost = bench_cost(tmp, big_mb, 200)
        concurrent = bench_concurrent(tmp, 50, seconds, 100)
    print_table(latency, cost, concurrent)
    return 0


def print_table(latency: dict[str, Any], cost: dict[str, Any], conc: dict[str, Any]) -> None:
    small, big = cost["small"], cost["big"]
    rows = [
        ("latency median (1 session, 20 lines/s)", f"{latency['median_ms']:.1f} ms", "<= 100 ms"),
        ("latency p99", f"{latency['p99_ms']:.1f} ms", "<= 300 ms"),
        ("latency max", f"{latency['max_ms']:.1f} ms", ""),
        ("arrived / appended", f"{latency['arrived']} / {latency['appends']}", "all"),
        (
            f"apply_change, 1 line on {small['size_mb'] * 1000:.0f} KB",
            f"{small['median_ms']:.3f} ms (mean {small['mean_ms']:.3f})",
            "",
        ),
        (
            f"apply_change, 1 line on {big['size_mb']:.0f} MB",
            f"{big['median_ms']:.3f} ms (mean {big['mean_ms']:.3f})",
            "",
        ),
        ("cost ratio big / small (median)", f"{cost['ratio']:.2f}x", "<= 2x"),
        (f"initial load of the {big['size_mb']:.0f} MB session", f"{big['load_s']:.2f} s", ""),
        (
            f"concurrent: {conc['sessions']} x {conc['lines_each']} lines",
            f"complete={conc['complete']} in-order-once={conc['in_order_once']}",
            "all, in order, once",
        ),
        (
            "concurrent: latency median / p99",
            f"{conc['median_ms']:.1f} / {conc['p99_ms']:.1f} ms",
            "",
        ),
        (
            "concurrent: watcher process CPU",
            f"{conc['cpu_s']:.2f} s over {conc['wall_s']:.1f} s = {conc['cores']:.2f} cores",
            "< 1 core",
        ),
    ]
    width = max(len(r[0]) for r in rows)
    value_width = max(len(r[1]) for r in rows)
    print(f"{'measure':<{width}}  {'result':<{value_width}}  target")
    print("-" * (width + value_width + 12))
    for label, value, target in rows:
        print(f"{label:<{width}}  {value:<{value_width}}  {target}")


if __name__ == "__main__":
    raise SystemExit(main())
