"""Load at scale: a ~1 GB session and a store of 10,000 sessions, pitui vs Pi 1.6.0.

    python benchmarks/bench_load.py [--entries 900000] [--sessions 10000] [--per-session 40]
                                    [--part large|store|all]

(a) load + leaf context of one ~1 GB session (`generate_large_session`); (b) listing a store of
10,000 sessions (`generate_store`): pitui cold (empty index) and warm (nothing changed) against
Pi's `SessionManager.listAll()`. Every measure runs in its own process; its wall time and peak
RSS come from `os.wait4` (the process and the children it waited for are not mixed with this
one). Node runs with its default heap limit (no `--max-old-space-size`): if Pi fails, the table
says how. Generated data is cached in `benchmarks/out/` (generating 1 GB takes minutes).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))
OUT = REPO / "benchmarks" / "out"


# --------------------------------------------------------------------------- child sides


def pitui_load(path: str) -> dict[str, object]:
    from pitui.core.session.session import Session

    start = time.perf_counter()
    session = Session(Path(path))
    loaded = time.perf_counter() - start
    context = session.context()
    total = time.perf_counter() - start
    return {
        "load_s": loaded,
        "load_context_s": total,
        "entries": len(session.tree.entries),
        "messages": len(context.messages),
    }


def pitui_list(root: str, cache: str) -> dict[str, object]:
    from pitui.core.catalog.catalog import Catalog

    start = time.perf_counter()
    catalog = Catalog(Path(root), cache_dir=Path(cache))
    report = catalog.scan(tools="later")  # listed and searchable by conversation text
    count = len(catalog.sessions())
    listed = time.perf_counter() - start
    catalog.close()
    return {"list_s": listed, "count": count, "skipped": report.skipped_not_sessions}


# --------------------------------------------------------------------------- measuring


def measure(argv: list[str]) -> dict[str, object]:
    """Run `argv`; its last stdout line as JSON (if any), wall time, peak RSS, exit status."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        process = subprocess.Popen(argv, stdout=out, stderr=err)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout = out.read().decode(errors="replace")
        stderr = err.read().decode(errors="replace")
    result: dict[str, object] = {}
    lines = stdout.strip().splitlines()
    if lines:
        with contextlib.suppress(ValueError):
            result = json.loads(lines[-1])
    result.update(
        wall_s=wall,
        peak_rss_mb=usage.ru_maxrss / 1024,
        exit=process.returncode,
        error=_error_of(stderr) if process.returncode else "",
    )
    return result


def _error_of(stderr: str) -> str:
    """The line that says what went wrong (Node: the RangeError / heap message)."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    for needle in ("heap out of memory", "RangeError", "Error:", "Killed"):
        for line in lines:
            if needle in line:
                return line[:160]
    return lines[-1][:160] if lines else "killed by a signal"


def node() -> str:
    from oracle import oracle_available

    found = oracle_available()
    if found is None:
        raise SystemExit("Pi oracle not installed: run scripts/install-oracle.sh")
    return str(found)


def load_average() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "?"


def me(*args: str) -> list[str]:
    return [sys.executable, __file__, *args]


# --------------------------------------------------------------------------- parts


def bench_large(
    n_entries: int, generate_only: bool = False
) -> list[tuple[str, dict[str, object], dict[str, object]]]:
    from pitui.demo.generate import generate_large_session

    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"large-{n_entries}.jsonl"
    if not path.exists():
        print(f"generating {path.name} ({n_entries:,} entries) ...", flush=True)
        started = time.perf_counter()
        partial = path.with_suffix(".tmp")
        generate_large_session(partial, n_entries=n_entries)
        partial.rename(path)
        print(f"  generated in {time.perf_counter() - started:.0f} s", flush=True)
    size = path.stat().st_size
    if generate_only:
        return []
    print(f"session: {n_entries:,} entries, {size / 1e9:.2f} GB; load {load_average()}", flush=True)
    read_through(path)  # both sides find the file in the page cache, whoever runs first
    ours = measure(me("--side", "load", str(path)))
    pi = measure([node(), str(REPO / "benchmarks" / "pi_load_context.mjs"), str(path), "1"])
    return [(f"load + leaf context, {size / 1e9:.2f} GB", ours, pi)]


def read_through(path: Path) -> None:
    with path.open("rb") as handle:
        while handle.read(16 * 1024 * 1024):
            pass


def bench_store(
    n_sessions: int, per_session: int, generate_only: bool = False
) -> list[tuple[str, dict[str, object], dict[str, object]]]:
    from pitui.demo.generate import generate_store

    root = OUT / f"store-{n_sessions}x{per_session}" / "sessions"
    if not root.exists():
        print(f"generating {n_sessions:,} sessions x {per_session} entries ...", flush=True)
        partial = root.parent / "sessions.tmp"
        shutil.rmtree(partial, ignore_errors=True)
        generate_store(partial, n_sessions, per_session, seed=0)
        partial.rename(root)
    if generate_only:
        return []
    size = sum(p.stat().st_size for p in root.rglob("*.jsonl"))
    print(f"store: {n_sessions:,} sessions, {size / 1e6:.0f} MB; load {load_average()}", flush=True)
    cache = Path(tempfile.mkdtemp(prefix="pitui-bench-load-"))
    try:
        pi = measure([node(), str(REPO / "benchmarks" / "pi_list.mjs"), str(root), "1"])
        cold = measure(me("--side", "list", str(root), str(cache)))
        warm = measure(me("--side", "list", str(root), str(cache)))
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    label = f"list {n_sessions:,} sessions ({size / 1e6:.0f} MB)"
    return [(f"{label}, cold index", cold, pi), (f"{label}, warm index", warm, pi)]


def table(rows: list[tuple[str, dict[str, object], dict[str, object]]]) -> str:
    lines = [
        "| measure | pitui time | pitui peak RSS | Pi 1.6.0 time | Pi peak RSS | time ratio |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for label, ours, pi in rows:
        t_ours = ours.get("load_context_s", ours.get("list_s"))
        t_pi = pi.get("load_context_s", pi.get("list_s"))
        ours_t = f"{t_ours:.2f} s" if isinstance(t_ours, float) else f"failed: {ours['error']}"
        if isinstance(t_pi, float):
            pi_t = f"{t_pi:.2f} s"
            ratio = f"{t_ours / t_pi:.2f}x" if isinstance(t_ours, float) else "-"
        else:
            pi_t = f"failed after {pi['wall_s']:.1f} s (exit {pi['exit']}): {pi['error']}"
            ratio = "-"
        lines.append(
            f"| {label} | {ours_t} | {ours['peak_rss_mb']:.0f} MB | {pi_t} | "
            f"{pi['peak_rss_mb']:.0f} MB | {ratio} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--entries", type=int, default=900_000)
    parser.add_argument("--sessions", type=int, default=10_000)
    parser.add_argument("--per-session", type=int, default=40)
    parser.add_argument("--part", choices=["large", "store", "all"], default="all")
    parser.add_argument("--generate-only", action="store_true", help="cache the data, no runs")
    parser.add_argument("--side", choices=["load", "list"], help=argparse.SUPPRESS)
    parser.add_argument("paths", nargs="*", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.side == "load":
        print(json.dumps(pitui_load(args.paths[0])))
        return
    if args.side == "list":
        print(json.dumps(pitui_list(args.paths[0], args.paths[1])))
        return
    before = load_average()
    rows = []
    if args.part in ("large", "all"):
        rows += bench_large(args.entries, args.generate_only)
    if args.part in ("store", "all"):
        rows += bench_store(args.sessions, args.per_session, args.generate_only)
    if args.generate_only:
        return
    print(f"\nload average before {before}, after {load_average()}; {os.cpu_count()} CPUs")
    print(table(rows))
    for label, ours, pi in rows:
        print(f"{label}: pitui {json.dumps(ours)}\n{'':>{len(label)}}  Pi {json.dumps(pi)}")


if __name__ == "__main__":
    main()
