"""`pitui stats --all` and `pitui du --all` as whole processes over a generated store.

    python benchmarks/bench_stats.py [--sessions 1000] [--entries 200] [--repeats 5] [--keep DIR]

Generates a store (`generate_store`, kept under --keep to be reused), then times each command
as a new process: cold (no usage cache: every file read) and warm (the cache is current;
best and median of --repeats). `du --all` only stats files and has no cache; its first run
is listed as cold. Prints the load average (figures mean little on a busy machine).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


CPU: list[float] = []  # user + sys seconds of each run (steadier than wall on a busy machine)
RSS: list[float] = []  # peak RSS of each run, MB


def run(args: list[str], env: dict[str, str]) -> float:
    sys.path.insert(0, str(REPO / "benchmarks"))
    import procs

    figure, _ = procs.measure([sys.executable, "-m", "pitui", *args], env)
    CPU.append(figure.cpu)
    RSS.append(figure.rss_mb)
    return figure.wall


def store(root: Path, sessions: int, entries: int) -> Path:
    from pitui.demo.generate import generate_store

    target = root / f"store-{sessions}x{entries}" / "agent"
    if not (target / "sessions").exists():  # kept: generating 10,000 takes ~45 s
        start = time.perf_counter()
        partial = target / "sessions.tmp"
        shutil.rmtree(partial, ignore_errors=True)
        generate_store(partial, sessions, entries, seed=0)
        partial.rename(target / "sessions")
        print(f"generated in {time.perf_counter() - start:.1f} s", flush=True)
    return target


async def screen_first_paint(agent: Path, cache: Path) -> tuple[float, float]:
    """Seconds from Alt+S in the picker (every session listed) to the stats screen painted
    with its numbers: with no usage cache, then again with it."""
    import asyncio

    from pitui.ui.app import make_app
    from pitui.ui.screens.stats import StatsScreen

    times = []
    for _ in range(2):
        app = make_app(sessions_root=agent / "sessions", all_scope=True, watch=False,
                       cache_dir=cache)  # fmt: skip
        async with app.run_test(size=(160, 48)) as pilot:
            picker = app.screen
            while not getattr(picker, "scanned", False) or not picker.rows:
                await asyncio.sleep(0.05)
            while app.catalog is not None and app.catalog.tools_pending:
                await asyncio.sleep(0.05)  # the tool-output index, built after the listing
            await pilot.pause(0.5)
            start = time.perf_counter()
            app.call_later(picker.action_stats)  # Alt+S (pilot.press waits for idle, ~1 s)
            while not (isinstance(app.screen, StatsScreen) and app.screen.stats is not None):
                await asyncio.sleep(0.005)
            await asyncio.sleep(0)  # the frame with the table and plots is queued
            times.append(time.perf_counter() - start)
    return times[0], times[1]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sessions", type=int, default=1000)
    parser.add_argument("--entries", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--screen", action="store_true", help="also the stats screen's paint")
    parser.add_argument("--keep", default=os.path.join(tempfile.gettempdir(), "pitui-bench-stats"))
    args = parser.parse_args()
    agent = store(Path(args.keep), args.sessions, args.entries)
    files = list((agent / "sessions").rglob("*.jsonl"))
    size = sum(p.stat().st_size for p in files)
    cache = Path(tempfile.mkdtemp(prefix="pitui-bench-stats-cache-"))
    env = dict(os.environ, PI_CODING_AGENT_DIR=str(agent), PITUI_CACHE_DIR=str(cache))
    env["PYTHONPATH"] = str(REPO)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as installed: compiled once, not every run
    print(f"{len(files):,} sessions, {size / 1e6:.0f} MB; load {os.getloadavg()[0]:.2f}")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-c", "import pitui.cli"], env=env, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    floor = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    print(f"python -c 'import pitui.cli' (the floor): cpu {floor:.3f} s")
    try:
        for name, command in (("stats", ["stats", "--all"]), ("du", ["du", "--all"])):
            if name == "stats":
                shutil.rmtree(cache, ignore_errors=True)  # du keeps no cache
            cold = run(command, env)
            cold_cpu = CPU[-1]
            warm = [run(command, env) for _ in range(args.repeats)]
            warm_cpu = CPU[-args.repeats :]
            print(
                f"pitui {name} --all: cold {cold:.3f} s (cpu {cold_cpu:.3f} s), warm best "
                f"{min(warm):.3f} s, median {statistics.median(warm):.3f} s "
                f"(cpu best {min(warm_cpu):.3f} s; peak RSS {max(RSS[-args.repeats :]):.0f} MB)",
                flush=True,
            )
        one = files[0]
        size_before = one.stat().st_size
        with one.open("a", encoding="utf-8") as fh:
            fh.write('{"type":"label","id":"bench001","parentId":null,"timestamp":"x"}\n')
        try:
            grown = run(["stats", "--all"], env)
        finally:
            os.truncate(one, size_before)  # the kept store stays as generated
        print(f"pitui stats --all after one file grew: {grown:.3f} s (cpu {CPU[-1]:.3f} s, "
          f"{RSS[-1]:.0f} MB)")  # fmt: skip
        if args.screen:
            import asyncio

            shutil.rmtree(cache, ignore_errors=True)
            cold, warm = asyncio.run(screen_first_paint(agent, cache))
            print(f"stats screen, Alt+S to painted: cold {cold:.3f} s, warm {warm:.3f} s")
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    print(f"load {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
