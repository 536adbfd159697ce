"""`pitui list --all --json` as a whole process against a Node process running Pi's
`SessionManager.listAll()` and printing the same list, on the same store in the same run.

    python benchmarks/bench_list_process.py [--sessions 1000] [--entries 200] [--repeats 3]
                                            [--keep DIR]

Cold: an empty index (a fresh PITUI_CACHE_DIR per run); warm: the index from the cold runs,
nothing changed. Each figure is the best of `--repeats` runs (warm: of 2x that), the runs of
both sides interleaved; peak RSS is each main process's (`os.wait4`; a cold pitui listing of
200+ new files also parses in worker processes, not counted). Prints ratios and the load.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import procs

REPO = procs.REPO


def measure(agent: Path, work: Path, repeats: int) -> dict[str, tuple[float, float]]:
    node = procs.node()
    pi_argv = [node, str(REPO / "benchmarks" / "pi_list_print.mjs"), str(agent)]
    pitui_argv = procs.pitui_argv("list", "--all", "--json")
    best: dict[str, tuple[float, float]] = {}

    def keep(name: str, figure: tuple[float, float, bytes]) -> None:
        if name not in best or figure[0] < best[name][0]:
            best[name] = figure[:2]

    cache = work / "cache"
    for _ in range(repeats):
        keep("pi", procs.run(pi_argv))
        shutil.rmtree(cache, ignore_errors=True)
        keep("cold", procs.run(pitui_argv, procs.pitui_env(agent, cache)))
    for _ in range(2 * repeats):
        keep("warm", procs.run(pitui_argv, procs.pitui_env(agent, cache)))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sessions", type=int, default=1000)
    parser.add_argument("--entries", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--keep", type=Path, help="reuse/keep the generated store here")
    args = parser.parse_args()
    work = args.keep or Path(tempfile.mkdtemp(prefix="pitui-bench-list-"))
    agent = work / f"agent-{args.sessions}x{args.entries}"
    try:
        if not (agent / "sessions").exists():
            from pitui.demo.generate import generate_store

            print(f"generating {args.sessions} sessions x {args.entries} entries ...", flush=True)
            generate_store(agent / "sessions", args.sessions, args.entries, seed=0)
        size = sum(p.stat().st_size for p in (agent / "sessions").rglob("*.jsonl")) / 1e6
        load = os.getloadavg()[0]
        best = measure(agent, work, args.repeats)
        pi_s, pi_mb = best["pi"]
        print(f"\n== {args.sessions} sessions, {size:.0f} MB; load {load:.2f} -> "
              f"{os.getloadavg()[0]:.2f}, {os.cpu_count()} CPUs")  # fmt: skip
        print(f"{'whole process':<40}{'time':>8}{'peak RSS':>10}{'vs Pi time':>12}  target")
        print(f"{'Pi listAll + print (node)':<40}{pi_s:>7.3f}s{pi_mb:>8.0f}MB{'1.000x':>12}")
        for name, label, target in (("cold", "pitui list --all --json, empty index", "<= 1.0x"),
                                    ("warm", "pitui list --all --json, warm index", "<= 0.05x")):  # fmt: skip
            seconds, mb = best[name]
            print(f"{label:<40}{seconds:>7.3f}s{mb:>8.0f}MB{seconds / pi_s:>11.3f}x  {target}")
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
