"""Load + leaf context of a 100,000-entry session: pitui vs Pi 1.6.0, in the same run.

    python benchmarks/bench_core.py [--entries 100000] [--repeats 3]

Each side runs in its own process so peak RSS is its own. Prints a table with ratios.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))

OUT = REPO / "benchmarks" / "out"


def pitui_side(path: Path, repeats: int) -> dict[str, float]:
    from pitui.core.session.session import Session

    best = float("inf")
    session = context = None
    for _ in range(repeats):
        session = context = None  # one session in memory at a time, as in Pi's loop
        start = time.perf_counter()
        session = Session(path)
        context = session.context()
        best = min(best, time.perf_counter() - start)
    assert context.messages
    append = time_append(session, path)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"load_context_s": best, "peak_rss_mb": peak, "append_ms": append}


def time_append(session: object, path: Path) -> float:
    """Median time for refresh() to pick up one appended line."""
    last = session.tree.leaf  # type: ignore[attr-defined]
    samples = []
    for i in range(50):
        line = {
            "type": "label",
            "id": f"b{i:07x}",
            "parentId": last.id,
            "timestamp": "2026-01-01T00:00:00.000Z",
            "targetId": last.id,
            "label": f"l{i}",
        }
        with path.open("a") as handle:
            handle.write(json.dumps(line) + "\n")
        start = time.perf_counter()
        update = session.refresh()  # type: ignore[attr-defined]
        samples.append((time.perf_counter() - start) * 1000)
        assert len(update.entries) == 1
    samples.sort()
    return samples[len(samples) // 2]


def pi_side(path: Path, repeats: int) -> dict[str, float]:
    from oracle import oracle_available

    node = oracle_available()
    if node is None:
        raise SystemExit("Pi oracle not installed: run scripts/install-oracle.sh")
    out = subprocess.run(
        [node, str(REPO / "benchmarks" / "pi_load_context.mjs"), str(path), str(repeats)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--entries", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--side", choices=["pitui"], help=argparse.SUPPRESS)
    parser.add_argument("--file", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.side == "pitui":
        print(json.dumps(pitui_side(Path(args.file), args.repeats)))
        return
    from pitui.demo.generate import generate_large_session

    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"large-{args.entries}.jsonl"
    if not path.exists():
        generate_large_session(path, n_entries=args.entries)
    pi_copy = OUT / "large-pi-copy.jsonl"
    pi_copy.write_bytes(path.read_bytes())
    size_mb = path.stat().st_size / 1e6
    pi = pi_side(pi_copy, args.repeats)
    ours_copy = OUT / "large-pitui-copy.jsonl"
    ours_copy.write_bytes(path.read_bytes())
    ours = json.loads(
        subprocess.run(
            [
                sys.executable,
                __file__,
                "--side",
                "pitui",
                "--file",
                str(ours_copy),
                "--repeats",
                str(args.repeats),
            ],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ},
        ).stdout
    )
    print(f"session: {args.entries} entries, {size_mb:.0f} MB")
    print(f"{'':28}{'pitui':>10}{'Pi 1.6.0':>10}{'ratio':>8}")
    ratio_t = ours["load_context_s"] / pi["load_context_s"]
    ratio_m = ours["peak_rss_mb"] / pi["peak_rss_mb"]
    print(
        f"{'load + leaf context (s)':28}{ours['load_context_s']:>10.3f}{pi['load_context_s']:>10.3f}{ratio_t:>8.2f}"
    )
    print(
        f"{'peak RSS (MB)':28}{ours['peak_rss_mb']:>10.0f}{pi['peak_rss_mb']:>10.0f}{ratio_m:>8.2f}"
    )
    print(f"{'append 1 line, refresh (ms)':28}{ours['append_ms']:>10.3f}{'-':>10}")


if __name__ == "__main__":
    main()
