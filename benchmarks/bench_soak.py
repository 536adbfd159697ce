"""The app's memory while the highlighted session is being written, as when pi is at work:
`pitui --all` in tmux on a generated store, lines appended to the session the picker
highlights (the newest) at `--rate` lines a second for `--minutes`, the app's resident memory
(VmRSS, /proc) read every 10 s.

    python benchmarks/bench_soak.py [--sessions 1000] [--minutes 5] [--rate 50] [--breakdown]

With `--breakdown` the app runs under `memprobe.py`, and where the memory is (Python objects,
SQLite, malloc's free space) is printed for the first sample, the first once lines are appended,
and the last.

The store is copied first (its files are appended to), and the app's index built in full before
the first line is appended (the indexing's own memory is not the soak's). Prints each sample, then the first,
last and largest, and the growth per minute after the first minute (the app settles first) and
in the second half of the run (flat: about 0).
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_tui_launch as tui
import procs


def rss_mb(pid: int) -> float:
    status = Path(f"/proc/{pid}/status").read_text()
    found = re.search(r"VmRSS:\s+(\d+) kB", status)
    return int(found.group(1)) / 1024 if found else 0.0


def slope(samples: list[tuple[float, float]]) -> float:
    """MB a minute from the first sample to the last."""
    return (samples[-1][1] - samples[0][1]) / max((samples[-1][0] - samples[0][0]) / 60, 1e-9)


def newest(sessions: Path) -> Path:
    return max(sessions.rglob("*.jsonl"), key=lambda p: p.stat().st_mtime_ns)


def line(n: int, parent: str) -> bytes:
    entry = {"type": "message", "id": f"soak{n:08x}", "parentId": parent,
             "timestamp": time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime()),
             "message": {"role": "user" if n % 2 else "assistant",
                         "content": [{"type": "text", "text": f"soak line {n} " * 8}]}}  # fmt: skip
    return json.dumps(entry).encode() + b"\n"


def print_breakdown(log: Path, appending_since: float) -> None:
    """The probe's first sample, its first once lines were appended, and its last."""
    samples = [json.loads(text) for text in log.read_text().splitlines()]
    first, last = samples[0], samples[-1]
    soak = next((s for s in samples if s["t"] >= appending_since), last)
    print(f"  {'':16} {'start':>12}    {'appending':>12}    {'end':>12}")
    for key in first:
        if key != "t":
            print(f"  {key:16} {first[key]:12.1f} -> {soak[key]:12.1f} -> {last[key]:12.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sessions", type=int, default=1000)
    parser.add_argument("--minutes", type=float, default=5.0)
    parser.add_argument("--rate", type=float, default=50.0)
    parser.add_argument("--breakdown", action="store_true")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="pitui-bench-soak-"))
    try:
        agent = work / "agent"
        shutil.copytree(tui.store(args.sessions) / "sessions", agent / "sessions")
        target = newest(agent / "sessions")
        parent = json.loads(target.read_bytes().splitlines()[-1])["id"]
        probe_log = work / "memprobe.jsonl"
        argv = procs.pitui_argv("--all")
        if args.breakdown:
            argv = [
                sys.executable,
                str(Path(__file__).with_name("memprobe.py")),
                str(probe_log),
                "--all",
            ]
        launch = tui.Launch(argv, tui.pitui_env(agent, work / "cache"), work)
        try:
            launch.until(tui.pitui_all(args.sessions), 120)
            launch.until(lambda text: "indexing" not in text, 600)  # the index complete first
            samples: list[tuple[float, float]] = []
            appending_since = time.time()
            start = next_sample = time.perf_counter()
            n = 0
            with target.open("ab") as out:
                while (now := time.perf_counter()) - start < args.minutes * 60:
                    if now >= next_sample:
                        samples.append((now - start, rss_mb(launch.pid)))
                        print(f"{samples[-1][0]:6.0f} s  {samples[-1][1]:7.1f} MB", flush=True)
                        next_sample += 10
                    out.write(line(n, parent))
                    out.flush()
                    parent, n = f"soak{n:08x}", n + 1
                    time.sleep(1 / args.rate)
            samples.append((time.perf_counter() - start, rss_mb(launch.pid)))
        finally:
            launch.close(tui.QUIT_PITUI)
        settled = [s for s in samples if s[0] >= 60] or samples
        later = [s for s in samples if s[0] >= samples[-1][0] / 2] or samples
        print(f"\n{n} lines appended to the highlighted session in {args.minutes:g} min; "
              f"RSS first {samples[0][1]:.0f} MB, last {samples[-1][1]:.0f} MB, "
              f"max {max(s[1] for s in samples):.0f} MB; after the first minute "
              f"{slope(settled):+.1f} MB/min, in the second half {slope(later):+.1f} MB/min")  # fmt: skip
        if args.breakdown:
            print_breakdown(probe_log, appending_since)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
