"""How each cost grows with the store: the waits a user meets at 1,000, 5,000 and 10,000
sessions (200 entries each), pitui's whole processes and app against Pi 1.6.0's in the same run.

    python benchmarks/bench_scale.py [--sizes 1000 5000 10000] [--repeats 2] [--no-pi-tui]

For each store (generated into benchmarks/out/agent-Nx200 once):
- Pi's `listAll()` printed (`pi_list_print.mjs`, a whole node process): the figure every
  ratio is to;
- `pitui list --all --json` with no index (cold: the listing), then the first search after it
  (`parser`: the conversation text indexed then when it is large), a word found nowhere (the
  tool output read and indexed for it, once), then warm searches of `QUERIES` (each once with
  the kept answers cleared: every one computed) and the warm listing (its kept answer);
  `pitui grep` of `GREPS`; `pitui check --all` with no check cache, then again;
- the index's size against the store's;
- the app: `pitui --all` to its whole list (warm index), and the picker's last key to the
  answer's rows for `bench_picker_search.QUERIES` (median, worst), with its peak RSS; then a
  first launch with no index: to the whole list, and to the search index complete;
- Pi's `/resume` to its whole list (Tab to All), unless `--no-pi-tui` (minutes at 10,000).

Whole processes are timed with `os.wait4` (wall, CPU, peak RSS of the largest process); the app
in tmux (`bench_tui_launch.Launch`). Each figure is the best of `--repeats`.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_picker_search as search_bench
import bench_tui_launch as tui
import procs

QUERIES = ("parser", '"update every caller"', "cache_2472", "model:opus", "cwd:project-07 test")
GREPS = ("zzqx-nothing", "cache_2472")  # a word found nowhere; one in a third of the sessions


def best(
    argv: list[str], env: dict[str, str] | None, repeats: int, before=None, ok=(0,)
) -> procs.Figure:
    figures = []
    for _ in range(repeats):
        if before is not None:
            before()
        figures.append(procs.measure(argv, env, ok)[0])
    return min(figures, key=lambda f: f.wall)


def cli_figures(agent: Path, work: Path, repeats: int) -> dict[str, procs.Figure]:
    cache = work / "cache-cli"
    env = procs.pitui_env(agent, cache)
    listing = procs.pitui_argv("list", "--all", "--json")
    found: dict[str, procs.Figure] = {}
    found["pi listAll"] = best([procs.node(), str(procs.REPO / "benchmarks" / "pi_list_print.mjs"),
                                str(agent)], None, repeats)  # fmt: skip
    found["cold list"] = best(listing, env, repeats, lambda: shutil.rmtree(cache, True))
    found["first search"] = procs.measure([*listing, "parser"], env)[0]
    found["word found nowhere, first"] = procs.measure([*listing, "zzqx-nothing"], env)[0]

    def no_kept_answers() -> None:
        shutil.rmtree(cache / "answers", ignore_errors=True)

    for query in QUERIES:
        found[f"search {query}"] = best([*listing, query], env, repeats, no_kept_answers)
    procs.measure(listing, env)  # keeps the answer
    found["warm list (kept answer)"] = best(listing, env, repeats)
    found["warm list (computed)"] = best(listing, env, repeats, no_kept_answers)
    for word in GREPS:
        grep = procs.pitui_argv("grep", word, "--all")
        found[f"grep {word}"] = best(grep, env, repeats, ok=(0, 1))
    check = procs.pitui_argv("check", "--all", "--json")  # exit 1: a departure found
    found["check --all, first"] = procs.measure(check, env, (0, 1))[0]
    found["check --all, again"] = best(check, env, repeats, ok=(0, 1))
    return found


def index_share(agent: Path, work: Path) -> float:
    store = sum(p.stat().st_size for p in (agent / "sessions").rglob("*.jsonl"))
    index = sum(p.stat().st_size for p in (work / "cache-cli").glob("catalog.sqlite3*"))
    return index / store


def search_index_done() -> tui.Check:
    """The status line said it was indexing for search, and says so no longer."""
    said: list[bool] = []

    def check(text: str) -> bool:
        if "indexing for search" in text:
            said.append(True)
            return False
        return bool(said)

    return check


def first_launch(agent: Path, work: Path, sessions: int) -> dict[str, float]:
    """`pitui --all` with no index: seconds to the whole list, and to the search index
    complete (the status line's "indexing for search" gone)."""
    cache = work / "cache-first-launch"
    shutil.rmtree(cache, ignore_errors=True)
    launch = tui.Launch(procs.pitui_argv("--all"), tui.pitui_env(agent, cache), work)
    try:
        listed = launch.until(lambda text: f"{sessions:,} shown" in text
                              and not re.search(r"indexing \d+/", text))  # fmt: skip
        indexed = launch.until(search_index_done(), timeout=600)
    finally:
        launch.close(tui.QUIT_PITUI)
        shutil.rmtree(cache, ignore_errors=True)
    return {"first launch listed": listed["s"], "first launch indexed": indexed["s"],
            "first launch mb": indexed["mb"]}  # fmt: skip


def app_figures(agent: Path, work: Path, sessions: int, repeats: int, pi_tui: bool) -> dict:
    cache = work / "cache-cli"  # warm: the CLI runs built it
    launches = []
    for _ in range(repeats):
        launch = tui.Launch(procs.pitui_argv("--all"), tui.pitui_env(agent, cache), work)
        try:
            launches.append(launch.until(tui.pitui_all(sessions)))
        finally:
            launch.close(tui.QUIT_PITUI)
    answers = {q: search_bench.expected(agent, cache, q) for q in search_bench.QUERIES}
    answers[""] = (sessions, "")
    queries = tuple(q for q in search_bench.QUERIES if answers[q][0] != sessions)  # else no sign
    times, mb = search_bench.run_pitui(agent, cache, answers, repeats, queries)
    every = [t for ts in times.values() for t in ts]
    found = {"launch": min(x["s"] for x in launches), "launch mb": max(x["mb"] for x in launches),
             "search median": statistics.median(every), "search worst": max(every),
             "app mb": mb}  # fmt: skip
    found.update(first_launch(agent, work, sessions))
    if pi_tui:
        found["pi resume all"] = pi_resume(agent, work)
    return found


def pi_resume(agent: Path, work: Path) -> float:
    launch, listed = search_bench.pi_all_listed(agent, work)
    search_bench.close_pi(launch)
    return listed


def report(sessions: int, cli: dict[str, procs.Figure], share: float, app: dict) -> None:
    pi = cli["pi listAll"]
    print(
        f"\n== {sessions} sessions; index {share:.0%} of the store; load {os.getloadavg()[0]:.2f}"
    )
    for name, f in cli.items():
        print(f"  {name:<36}{f.wall:>8.2f} s{f.cpu:>8.2f} s cpu{f.rss_mb:>7.0f} MB"
              f"{f.wall / pi.wall:>8.3f}x Pi")  # fmt: skip
    print(f"  app: launch to the whole list {app['launch']:.2f} s ({app['launch mb']:.0f} MB), "
          f"picker search median {app['search median']:.3f} s, worst {app['search worst']:.3f} s, "
          f"{app['app mb']:.0f} MB")  # fmt: skip
    print(f"  app, first launch (no index): the whole list {app['first launch listed']:.2f} s "
          f"({app['first launch listed'] / pi.wall:.2f}x Pi), the search index complete "
          f"{app['first launch indexed']:.1f} s ({app['first launch indexed'] / pi.wall:.2f}x "
          f"Pi), {app['first launch mb']:.0f} MB")  # fmt: skip
    if "pi resume all" in app:
        print(f"  Pi /resume to its whole list (All): {app['pi resume all']:.1f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 5000, 10000])
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--no-pi-tui", action="store_true")
    args = parser.parse_args()
    for sessions in args.sizes:
        agent = tui.store(sessions)
        work = Path(tempfile.mkdtemp(prefix=f"pitui-bench-scale-{sessions}-"))
        try:
            cli = cli_figures(agent, work, args.repeats)
            share = index_share(agent, work)
            app = app_figures(agent, work, sessions, args.repeats, not args.no_pi_tui)
            report(sessions, cli, share, app)
        finally:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
