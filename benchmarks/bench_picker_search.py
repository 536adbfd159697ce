"""Typing a search in the picker, as a user meets it: from the last key typed to the answer's
rows on screen, in the real app in tmux, on a store of `--sessions` generated sessions
(warm index), against Pi 1.6.0's own `/resume` picker on the same store in the same run.

    python benchmarks/bench_picker_search.py [--sessions 10000] [--repeats 3] [--no-pi]

Each query is typed into a picker that shows the whole list (pitui: `pitui --all`; Pi:
`pi --resume`, then Tab to All), all of it in one `send-keys` (as a paste or a fast typist),
after Ctrl+U cleared the box. pitui's answer is on screen when the status line counts the
answer's rows ("N shown", N from `pitui list --all --json QUERY`) and the first row is the
answer's first session; Pi's when its first row is that session. The screen is read each
time the program writes (`bench_tui_launch.Launch`). Figures: the median and worst over the queries and repeats, and
each query's best; the peak RSS of each app at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_tui_launch as tui
import procs

PI_LISTING_TIMEOUT = 600.0  # Pi's /resume lists 10,000 sessions in minutes on 2 cores
QUERIES = (
    "Task 9973",  # a session's name
    "cache_2472",  # a word in some sessions' text
    '"update every caller"',  # a phrase
    "cwd:project-07 cache",  # a field filter
    "model:opus",
    "zzqx-nothing",  # found nowhere (the tool output searched too)
    "client.go",
    "ui",  # two letters: no trigram, the texts are read
)  # each answer's count differs from the whole list's, so no stale screen passes for it


def expected(agent: Path, cache: Path, query: str) -> tuple[int, str]:
    """The answer's row count and a prefix of its first row's title."""
    env = procs.pitui_env(agent, cache)
    argv = procs.pitui_argv("list", "--all", "--json", "--sort", "threaded", query)
    rows = json.loads(procs.run(argv, env)[2])  # the picker's order (--json's is recent)
    if not rows:
        return 0, ""
    title = " ".join((rows[0]["name"] or rows[0]["firstMessage"]).split())
    return len(rows), title[:16]


def first_row(text: str) -> str:
    """The first list row of a picker screen (the line after the status / header)."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if " shown" in line or "◉ All" in line:
            rest = [x for x in lines[i + 1 :] if x.strip() and "Session " not in x]
            return rest[0] if rest else ""
    return ""


def typed(launch: tui.Launch, query: str, done: tui.Check) -> float:
    launch.send("C-u")
    time.sleep(0.3)  # the empty query's answer (the whole list) is in
    launch.send("-l", query)
    sent = time.perf_counter()
    return launch.seen(done, sent) - sent


def pitui_done(count: int, title: str) -> tui.Check:
    def check(text: str) -> bool:
        if f" {count:,} shown" not in text:
            return False
        return count == 0 or title in first_row(text)

    return check


def pi_done(count: int, title: str) -> tui.Check:
    """Pi's picker marks its selected row (the first of the answer) with "›"."""

    def check(text: str) -> bool:
        if count == 0:
            return "No sessions" in text or "no sessions" in text.lower()
        selected = [line for line in text.splitlines() if line.lstrip().startswith("›")]
        return bool(selected) and title in selected[0]

    return check


def run_pitui(
    agent: Path, cache: Path, answers: dict, repeats: int, queries: tuple[str, ...] = QUERIES
) -> tuple[dict, float]:
    launch = tui.Launch(
        procs.pitui_argv("--all"), tui.pitui_env(agent, cache), Path(tempfile.gettempdir())
    )
    times: dict[str, list[float]] = {q: [] for q in queries}
    try:
        launch.until(tui.pitui_all(answers[""][0]))
        for _ in range(repeats):
            for query in queries:
                times[query].append(typed(launch, query, pitui_done(*answers[query])))
        return times, launch.usage()["mb"]
    finally:
        launch.close(tui.QUIT_PITUI)


def pi_all_listed(agent: Path, work: Path) -> tuple[tui.Launch, float]:
    """Pi's `/resume` on the store (a private agent folder holding it), Tab to All, and the
    seconds from launch until its whole list is in. The caller closes it (`close_pi`)."""
    pi_agent, pi_home = work / "pi-agent", work / "pi-home"
    pi_home.mkdir(parents=True, exist_ok=True)
    if not pi_agent.exists():
        pi_agent.mkdir(parents=True)
        (pi_agent / "sessions").symlink_to(agent / "sessions")
    argv = [procs.node(), str(tui.PI_CLI), "--resume"]
    launch = tui.Launch(argv, tui.pi_env(pi_agent, pi_home), pi_home)
    try:
        launch.until(tui.contains("Resume Session"), PI_LISTING_TIMEOUT)
        launch.send("Tab")
        return launch, launch.until(tui.pi_all, PI_LISTING_TIMEOUT)["s"]
    except BaseException:
        close_pi(launch)
        raise


def close_pi(launch: tui.Launch) -> None:
    launch.close(("Escape", "C-c", "C-c"))


def run_pi(agent: Path, work: Path, answers: dict, repeats: int) -> tuple[dict, float]:
    launch, listed = pi_all_listed(agent, work)
    print(f"Pi's /resume: the whole list (All) after {listed:.1f} s", flush=True)
    times: dict[str, list[float]] = {q: [] for q in QUERIES}
    try:
        for _ in range(repeats):
            for query in QUERIES:
                if query.startswith("cwd:"):
                    continue  # pitui's field filter: Pi has none
                times[query].append(typed(launch, query, pi_done(*answers[query])))
        return times, launch.usage()["mb"]
    finally:
        close_pi(launch)


def summary(name: str, times: dict[str, list[float]], mb: float) -> None:
    every = [t for ts in times.values() for t in ts]
    print(f"\n{name}: median {statistics.median(every):.3f} s, worst {max(every):.3f} s, "
          f"peak RSS {mb:.0f} MB")  # fmt: skip
    for query, ts in times.items():
        if ts:
            print(f"  {query:<28} best {min(ts):.3f} s  worst {max(ts):.3f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sessions", type=int, default=10000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--no-pi", action="store_true")
    args = parser.parse_args()
    agent = tui.store(args.sessions)
    work = Path(tempfile.mkdtemp(prefix="pitui-bench-search-"))
    cache = tui.OUT / f"cache-{args.sessions}"
    load = os.getloadavg()[0]
    answers = {q: expected(agent, cache, q) for q in ("", *QUERIES)}
    answers[""] = (args.sessions, "")
    for query in QUERIES:
        print(f"{query!r}: {answers[query][0]} sessions", flush=True)
    pitui_times, pitui_mb = run_pitui(agent, cache, answers, args.repeats)
    summary(f"pitui, {args.sessions} sessions", pitui_times, pitui_mb)
    if not args.no_pi:
        pi_times, pi_mb = run_pi(agent, work, answers, args.repeats)
        summary(f"Pi 1.6.0 /resume, {args.sessions} sessions", pi_times, pi_mb)
    print(f"\nload {load:.2f} -> {os.getloadavg()[0]:.2f}, {os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()
