"""`pitui list --all --json` as a whole process against a Node process running Pi's
`SessionManager.listAll()` and printing the same list, on the same store in the same run.

    python benchmarks/bench_list_process.py [--sessions 1000] [--entries 200] [--repeats 3]
                                            [--keep DIR]

Cold: an empty index (a fresh PITUI_CACHE_DIR per run), listing, and searching (`list --all
--json QUERY` as the first command of all); warm: the index from the cold runs,
nothing changed; grown: warm after one file grew one line (a label appended to the generated
store, before each run); search: `pitui list --all --json QUERY`, warm, once per query, after
a first search on the index the cold listing left (Pi has no search outside its picker). Each
figure is the best of `--repeats` runs (warm: of 2x that), the runs of both sides
interleaved; wall time, CPU time (user + system, with the worker processes a cold pitui
listing of 200+ new files parses in) and peak RSS of the largest single process
(`os.wait4`). Prints ratios and the load.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import procs

REPO = procs.REPO


QUERIES = (
    "parser",
    "refactor the",
    '"update every caller"',
    "re:http.*client",
    "cwd:project-07 test",
    "zzqx-nothing",
    "model:opus",
)  # as bench_catalog.py


def measure(agent: Path, work: Path, repeats: int) -> dict[str, procs.Figure]:
    node = procs.node()
    pi_argv = [node, str(REPO / "benchmarks" / "pi_list_print.mjs"), str(agent)]
    pitui_argv = procs.pitui_argv("list", "--all", "--json")
    best: dict[str, procs.Figure] = {}

    def keep(name: str, argv: list[str], env: dict[str, str] | None = None) -> None:
        figure, _ = procs.measure(argv, env)
        if name not in best or figure.wall < best[name].wall:
            best[name] = figure

    cache = work / "cache"
    env = procs.pitui_env(agent, cache)
    cold_search = [*pitui_argv, QUERIES[0]]
    for _ in range(repeats):
        keep("pi", pi_argv)
        shutil.rmtree(cache, ignore_errors=True)
        keep("cold search", cold_search, env)  # a search as the first command of all
        shutil.rmtree(cache, ignore_errors=True)
        keep("cold", pitui_argv, env)
    for _ in range(2 * repeats):
        keep("warm", pitui_argv, env)
    grown = min((agent / "sessions").rglob("*.jsonl"))
    for i in range(repeats):
        keep("grown", *grow_one_line(grown, i, pitui_argv, env))
    search = procs.pitui_argv("list", "--all", "--json")
    keep("first search", [*search, QUERIES[0]], env)  # the first after a cold listing
    for query in QUERIES:
        keep(f"search {query}", [*search, query], env)
    return best


def grow_one_line(path: Path, i: int, argv: list[str], env: dict[str, str]) -> tuple:
    """Append one label line to `path`; the listing after it is timed by the caller.
    (The store is generated for the benchmark; the line stays, as a user's would.)"""
    last = json.loads(path.read_bytes().splitlines()[-1])
    line = {"type": "label", "id": f"bench{i:03x}", "parentId": last["id"],
            "timestamp": "2026-01-01T00:00:00.000Z", "targetId": last["id"], "label": f"b{i}"}  # fmt: skip
    with path.open("a") as handle:
        handle.write(json.dumps(line) + "\n")
    return argv, env


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
        pi = best["pi"]
        print(f"\n== {args.sessions} sessions, {size:.0f} MB; load {load:.2f} -> "
              f"{os.getloadavg()[0]:.2f}, {os.cpu_count()} CPUs")  # fmt: skip
        print(f"{'whole process':<44}{'time':>8}{'cpu':>8}{'peak RSS':>10}{'vs Pi':>8}  target")
        rows = [("pi", "Pi listAll + print (node)", "")]
        rows += [("cold", "pitui list --all --json, empty index", "<= 1.0x"),
                 ("cold search", f"the same with a search ({QUERIES[0]})", "<= 1.0x"),
                 ("warm", "pitui list --all --json, warm index", "<= 0.05x"),
                 ("grown", "the same after one file grew one line", "<= 0.1x")]  # fmt: skip
        rows += [("first search", f"first search ({QUERIES[0]}) after the listing", "")]
        rows += [(name, f"  {name}, warm", "") for name in best if name.startswith("search")]
        for name, label, target in rows:
            f = best[name]
            print(f"{label:<44}{f.wall:>7.3f}s{f.cpu:>7.3f}s{f.rss_mb:>8.0f}MB"
                  f"{f.wall / pi.wall:>7.3f}x  {target}")  # fmt: skip
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
