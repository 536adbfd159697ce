"""`pitui list` on a hostile store as a whole process: 1,000 generated sessions plus one
session whose single message line is `--line-mb` MB (default 300), empty index.

    python benchmarks/bench_hostile_store.py [--line-mb 300] [--sessions 1000] [--with-pi]
                                             [--keep DIR]

Prints wall time and peak RSS of `pitui list --all` (cold: a fresh index; then warm), and of
the huge session alone (what indexing one such line costs), and with `--with-pi` the same for
a node process running Pi's listAll() (benchmarks/pi_list_print.mjs). Peak RSS is
`ru_maxrss` from `os.wait4` (the process and the children it reaped).
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

HEADER = b'{"type":"session","version":3,"id":"huge","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}\n'
MESSAGE = (b'{"type":"message","id":"u1","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z",'
           b'"message":{"role":"user","content":[{"type":"text","text":"')  # fmt: skip


def write_huge(path: Path, megabytes: int) -> None:
    """One session: a header, then one user message of `megabytes` MB of text."""
    path.parent.mkdir(parents=True, exist_ok=True)
    unit = b'a line of pasted log output with \\"quotes\\" and a tab\\t ' * 1000
    with path.open("wb") as fh:
        fh.write(HEADER + MESSAGE)
        for _ in range(megabytes * 1024 * 1024 // len(unit)):
            fh.write(unit)
        fh.write(b'"}]}}\n')


def measure(agent: Path, work: Path, with_pi: bool) -> list[tuple[str, float, float]]:
    argv = procs.pitui_argv("list", "--all")
    cache = work / "cache"
    shutil.rmtree(cache, ignore_errors=True)
    rows = [("pitui list --all, empty index", *procs.run(argv, procs.pitui_env(agent, cache))[:2])]
    rows.append(
        ("pitui list --all, warm index", *procs.run(argv, procs.pitui_env(agent, cache))[:2])
    )
    alone = work / "alone"
    if not alone.exists():
        (alone / "sessions" / "--w--").mkdir(parents=True)
        os.link(
            agent / "sessions" / "--w--" / "huge.jsonl", alone / "sessions" / "--w--" / "huge.jsonl"
        )
    shutil.rmtree(cache, ignore_errors=True)
    rows.append(
        (
            "pitui list --all, the huge session alone",
            *procs.run(argv, procs.pitui_env(alone, cache))[:2],
        )
    )
    if with_pi:
        node = procs.node()
        script = str(procs.REPO / "benchmarks" / "pi_list_print.mjs")
        rows.append(("Pi listAll + print (node)", *procs.run([node, script, str(agent)])[:2]))
        rows.append(
            (
                "Pi listAll + print, the huge session alone",
                *procs.run([node, script, str(alone)])[:2],
            )
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--line-mb", type=int, default=300)
    parser.add_argument("--sessions", type=int, default=1000)
    parser.add_argument("--entries", type=int, default=200)
    parser.add_argument("--with-pi", action="store_true")
    parser.add_argument("--keep", type=Path, help="reuse/keep the generated store here")
    args = parser.parse_args()
    work = args.keep or Path(tempfile.mkdtemp(prefix="pitui-bench-hostile-"))
    agent = work / f"agent-{args.sessions}-{args.line_mb}mb"
    try:
        huge = agent / "sessions" / "--w--" / "huge.jsonl"
        if not huge.exists():
            from pitui.demo.generate import generate_store

            print(f"generating {args.sessions} sessions + a {args.line_mb} MB line ...", flush=True)
            generate_store(agent / "sessions", args.sessions, args.entries, seed=0)
            write_huge(huge, args.line_mb)
        load = os.getloadavg()[0]
        rows = measure(agent, work, args.with_pi)
        print(f"\n== {args.sessions} sessions + one {args.line_mb} MB line; load {load:.2f} -> "
              f"{os.getloadavg()[0]:.2f}, {os.cpu_count()} CPUs")  # fmt: skip
        for label, seconds, mb in rows:
            print(f"{label:<46}{seconds:>8.2f}s{mb:>8.0f}MB")
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
