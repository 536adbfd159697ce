"""Session commands as whole processes, as a user runs them, against a Node process running
Pi 1.6.0's own code on the same file in the same run.

    python benchmarks/bench_process.py [--entries 100000] [--repeats 3] [--only NAME ...]

On the generated 100k-entry session (`generate_large_session`, ~110 MB, kept in
benchmarks/out/):
  context    `pitui context FILE --json`   vs  Pi's load + migrate + buildSessionContext, printed
  tree       `pitui tree FILE`             vs  Pi's SessionManager.open + getTree + its /tree
                                               component (TreeSelectorComponent: flatten,
                                               filter, first screen), every row's text printed
  tree-json  `pitui tree FILE --json`      vs  the same, one JSON object per row
The tree cases also run Pi's load + context (the `context` case's Pi side) in the same
alternation and give the ratio to it: their target is to take no longer than that.
(Pi's side: `pi_session_print.mjs`.) Runs alternate pitui and Pi; each figure is the best of
`--repeats` runs: wall time, CPU time (user + system, the steadier figure on a loaded
machine) and peak RSS (`os.wait4`), with the range of wall times. The file is read through
once first so both sides find it in the page cache.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import procs

REPO = procs.REPO
OUT = REPO / "benchmarks" / "out"
PI_SCRIPT = REPO / "benchmarks" / "pi_session_print.mjs"

CASES = {
    "context": (("context", "{file}", "--json"), "context"),
    "tree": (("tree", "{file}"), "tree"),
    "tree-json": (("tree", "{file}", "--json"), "tree-json"),
}


def session_file(entries: int) -> Path:
    size = f"{entries // 1000}k" if entries % 1000 == 0 else str(entries)
    path = OUT / f"large-{size}.jsonl"
    if not path.exists():
        from pitui.demo.generate import generate_large_session

        print(f"generating {entries} entries -> {path} ...", flush=True)
        OUT.mkdir(parents=True, exist_ok=True)
        generate_large_session(path, entries)
    with path.open("rb") as handle:  # into the page cache, for both sides alike
        while handle.read(1 << 24):
            pass
    return path


def run_case(name: str, file: Path, repeats: int) -> dict[str, list[procs.Figure]]:
    pitui_args, pi_mode = CASES[name]
    ours = procs.pitui_argv(*(arg.format(file=file) for arg in pitui_args))
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    pi = [procs.node(), str(PI_SCRIPT), pi_mode, str(file)]
    order = [("pitui", ours, env), ("pi", pi, None)]
    if pi_mode != "context":  # the target: Pi's load + context, in the same runs
        order.append(("pi-context", [procs.node(), str(PI_SCRIPT), "context", str(file)], None))
    figures: dict[str, list[procs.Figure]] = {side: [] for side, _, _ in order}
    for i in range(repeats):  # alternate, and alternate who goes first
        for side, argv, side_env in order if i % 2 == 0 else order[::-1]:
            figure, out = procs.measure(argv, side_env)
            assert out, f"{side} printed nothing"
            figures[side].append(figure)
    return figures


def summary(figures: list[procs.Figure]) -> str:
    walls = sorted(f.wall for f in figures)
    cpu = min(f.cpu for f in figures)
    rss = max(f.rss_mb for f in figures)
    return f"{walls[0]:6.2f}s ({walls[0]:.2f}-{walls[-1]:.2f}) cpu {cpu:5.2f}s {rss:6.0f}MB"


def ratios(ours: list[procs.Figure], pi: list[procs.Figure]) -> str:
    """pitui / Pi: best wall, best CPU, highest peak RSS."""
    wall = min(f.wall for f in ours) / min(f.wall for f in pi)
    cpu = min(f.cpu for f in ours) / min(f.cpu for f in pi)
    rss = max(f.rss_mb for f in ours) / max(f.rss_mb for f in pi)
    return f"wall {wall:.2f}x  cpu {cpu:.2f}x  rss {rss:.2f}x"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--entries", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--only", nargs="*", choices=sorted(CASES), default=list(CASES))
    args = parser.parse_args()
    file = session_file(args.entries)
    load = os.getloadavg()[0]
    print(f"{file.name}: {file.stat().st_size / 1e6:.0f} MB, best of {args.repeats}")
    print(f"{'case':<10}{'side':<11}{'wall best (range)':>26}{'cpu':>12}{'peak RSS':>10}")
    for name in args.only:
        figures = run_case(name, file, args.repeats)
        for side in figures:
            print(f"{name:<10}{side:<11}{summary(figures[side])}")
        print(f"{'':<10}{'ratio':<11}{ratios(figures['pitui'], figures['pi'])}", flush=True)
        if "pi-context" in figures:
            versus = ratios(figures["pitui"], figures["pi-context"])
            print(f"{'':<10}{'vs context':<11}{versus}", flush=True)
    print(f"load average {load:.2f} -> {os.getloadavg()[0]:.2f}, {os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()
