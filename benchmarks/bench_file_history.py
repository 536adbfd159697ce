"""A file's history across sessions at scale: `pitui log FILE --all` as whole processes.

The store is made here (`generate_store(..., edits=True)`: a fifth of the tool calls edit or
write one of ten project files, in 20 project folders), so that the history has something to
find; the other benchmarks' stores only read files. Pi has no history of a file: its
`listAll()` of the same store, printed by node in the same run, is the scale the figures are
given against, as `pitui grep`'s are.

Measured: the first `log` on a warm listing (the tool output, where the index finds the
writes, indexed then), then warm: one file in one project (written in about 1 of 20
sessions), a whole project folder (every file in it), and a file no session wrote.

    python benchmarks/bench_file_history.py --sessions 10000 --repeats 5
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import procs

OUT = procs.REPO / "benchmarks" / "out"
PROJECT = "/home/dev/projects/project-03"
ASKED = {
    "one file": f"{PROJECT}/src/app.py",
    "a project folder": PROJECT,
    "a file no session wrote": f"{PROJECT}/src/nothing-here.py",
}


def store(sessions: int) -> Path:
    agent = OUT / f"agent-{sessions}x200-edits"
    if not (agent / "sessions").exists():
        from pitui.demo.generate import generate_store

        print(f"generating {sessions} sessions with edits ...", flush=True)
        generate_store(agent / "sessions", sessions, 200, seed=0, edits=True)
    return agent


def log_argv(path: str) -> list[str]:
    return procs.pitui_argv("log", path, "--all", "--json")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sessions", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    agent = store(args.sessions)
    cache = OUT / f"cache-{args.sessions}-edits"
    shutil.rmtree(cache, ignore_errors=True)
    env = procs.pitui_env(agent, cache)
    pi = [procs.node(), str(procs.REPO / "benchmarks" / "pi_list_print.mjs"), str(agent)]
    base = min(procs.measure(pi)[0].wall for _ in range(args.repeats))
    print(f"{args.sessions} sessions; Pi's listAll(), printed: {base:.2f} s")
    procs.measure(procs.pitui_argv("list", "--all", "--json"), env)  # the listing, indexed
    first, out = procs.measure(log_argv(ASKED["one file"]), env)
    print(f"first log (tool output indexed then): {first.wall:.2f} s, {first.rss_mb:.0f} MB, "
          f"{first.wall / base:.2f}x; {out.count(b'sessionId')} changes")  # fmt: skip
    for what, path in ASKED.items():
        figures = [procs.measure(log_argv(path), env, ok=(0, 1)) for _ in range(args.repeats)]
        walls = [figure.wall for figure, _ in figures]
        changes = figures[0][1].count(b'"sessionId"')
        print(f"log {what}: median {statistics.median(walls):.2f} s (best {min(walls):.2f}), "
              f"{max(f.rss_mb for f, _ in figures):.0f} MB, "
              f"{statistics.median(walls) / base:.3f}x; {changes} changes")  # fmt: skip


if __name__ == "__main__":
    main()
