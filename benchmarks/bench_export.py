"""Exporting the branch of a 100,000-entry session as Markdown and as HTML: the whole
`pitui export` process vs a Node process running Pi 1.6.0's load + buildSessionContext of the
same file.

    python benchmarks/bench_export.py [--entries 100000] [--repeats 3] [--formats md,html]

Both are timed as whole processes (start-up included), best of `repeats`, each repeat running
Pi and every format in turn (a machine shared with other work slows them alike); peak RSS is
each process's own (wait4), CPU its user + system time. Pi has no Markdown export: its load +
context is the nearest work (reading and resolving the same file) and is what the ratio
compares with.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))

OUT = REPO / "benchmarks" / "out"


def run_process(args: list[str]) -> tuple[float, float, float]:
    """Wall time (s), CPU time (s) and peak RSS (MB) of one process."""
    start = time.perf_counter()
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"{args[0]} failed: {proc.stderr.read().decode() if proc.stderr else ''}")
    return elapsed, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def best(runs: list[tuple[float, float, float]]) -> tuple[float, float, float]:
    """The least wall and CPU time, the most memory."""
    return min(r[0] for r in runs), min(r[1] for r in runs), max(r[2] for r in runs)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--entries", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--formats", default="md,html")
    args = parser.parse_args()
    from oracle import oracle_available

    from pitui.demo.generate import generate_large_session

    node = oracle_available()
    if node is None:
        raise SystemExit("Pi oracle not installed: run scripts/install-oracle.sh")
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"large-{args.entries}.jsonl"
    if not path.exists():
        generate_large_session(path, n_entries=args.entries)
    pi_copy = OUT / "large-pi-copy.jsonl"  # Pi may append a newline to a file it loads
    pi_copy.write_bytes(path.read_bytes())
    pi_command = [node, str(REPO / "benchmarks" / "pi_load_context.mjs"), str(pi_copy), "1"]
    forms = args.formats.split(",")
    export = [sys.executable, "-m", "pitui", "export", str(path), "--force", "--format"]
    commands = {form: [*export, form, "-o", str(OUT / f"export.{form}")] for form in forms}
    runs: dict[str, list[tuple[float, float, float]]] = {"pi": [], **{f: [] for f in forms}}
    for _ in range(args.repeats):  # interleaved: Pi, then each format, again
        runs["pi"].append(run_process(pi_command))
        for form in forms:
            runs[form].append(run_process(commands[form]))
    pi = best(runs["pi"])
    size_mb = path.stat().st_size / 1e6
    print(
        f"session: {args.entries} entries, {size_mb:.0f} MB; load average {os.getloadavg()[0]:.2f}"
    )
    print(f"{'whole process':28}{'pitui export':>14}{'Pi load+ctx':>13}{'ratio':>8}{'MB out':>8}")
    for form in forms:
        ours = best(runs[form])
        out_mb = _written(OUT / f"export.{form}") / 1e6
        label = f"{form}: time (s), best of {args.repeats}"
        print(f"{label:28}{ours[0]:>14.2f}{pi[0]:>13.2f}{ours[0] / pi[0]:>8.2f}{out_mb:>8.1f}")
        label = f"{form}: CPU time (s)"
        print(f"{label:28}{ours[1]:>14.2f}{pi[1]:>13.2f}{ours[1] / pi[1]:>8.2f}")
        label = f"{form}: peak RSS (MB)"
        print(f"{label:28}{ours[2]:>14.0f}{pi[2]:>13.0f}{ours[2] / pi[2]:>8.2f}")


def _written(path: Path) -> int:
    """The bytes of an export: its file, and the parts beside it of a paged HTML export."""
    parts = path.with_name(path.stem + "-parts")
    return path.stat().st_size + sum(p.stat().st_size for p in parts.glob("part-*.html"))


if __name__ == "__main__":
    main()
