"""How long a browser takes to draw the HTML export of a 100,000-entry session: pitui's
pages (the index a user opens, and its largest part) against Pi's own `pi --export` page of
the same file, each opened by headless Chromium (`chromium --headless --screenshot`: the
process ends once the page is loaded and a first frame is drawn), whole processes,
interleaved; and the browser's peak memory (the PSS of all its processes, sampled every
0.1 s). A page not drawn within `--timeout` seconds is recorded as such, and not opened again.
`--one-page` adds pitui's page as one file (what `pitui export` prints to stdout).

    python benchmarks/bench_export_browser.py [--entries 100000] [--repeats 3] [--one-page]

Needs Debian's `chromium` (`apt-get install chromium`) and the Pi oracle
(`scripts/install-oracle.sh`).
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))
OUT = REPO / "benchmarks" / "out"
PI_CLI = REPO / ".oracle/node_modules/@earendil-works/pi-coding-agent/dist/cli.js"
SAMPLE_S = 0.1


def open_in_browser(chromium: str, page: Path, timeout: float) -> tuple[float | None, int]:
    """Seconds from starting Chromium on `page` until it has drawn it and exited (None: not
    within `timeout`), and the peak PSS of its processes in bytes."""
    with tempfile.TemporaryDirectory() as profile:
        shot = Path(profile) / "shot.png"
        argv = [chromium, "--headless", "--no-sandbox", "--disable-gpu",
                f"--user-data-dir={profile}", "--window-size=1200,900",
                f"--screenshot={shot}", page.as_uri()]  # fmt: skip
        start = time.perf_counter()
        # its own process group: on a timeout the renderer and GPU processes go too
        proc = subprocess.Popen(
            argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
        )
        peak = 0
        while proc.poll() is None and time.perf_counter() - start < timeout:
            peak = max(peak, _group_pss(proc.pid))
            time.sleep(SAMPLE_S)
        seconds = time.perf_counter() - start
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            return None, peak
        if proc.returncode != 0 or not shot.exists() or shot.stat().st_size == 0:
            raise SystemExit(f"chromium drew nothing for {page} (exit {proc.returncode})")
    return seconds, peak


def _group_pss(group: int) -> int:
    """The summed PSS of the processes of process group `group`, in bytes."""
    total = 0
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            if int(fields[2]) != group:  # pgrp: the fifth field, the third after the name
                continue
            with open(f"/proc/{pid}/smaps_rollup") as rollup:
                for line in rollup:
                    if line.startswith("Pss:"):
                        total += int(line.split()[1]) * 1024
                        break
        except (OSError, IndexError, ValueError):
            continue  # the process ended meanwhile
    return total


def exports(session: Path, node: str, env: dict[str, str], one_page: bool) -> dict[str, Path]:
    """The pages to open, by name: pitui's index and its largest part, Pi's page."""
    index = OUT / "export-browser.html"
    parts = OUT / "export-browser-parts"
    shutil.rmtree(parts, ignore_errors=True)
    pitui = [sys.executable, "-m", "pitui", "export", str(session), "--format", "html"]
    subprocess.run([*pitui, "-o", str(index), "--force"], check=True, env=env)
    pages = {"pitui index": index}
    if parts.is_dir():
        pages["pitui part"] = max(parts.iterdir(), key=lambda part: part.stat().st_size)
    if one_page:
        pages["pitui 1 page"] = OUT / "export-browser-one-page.html"
        with pages["pitui 1 page"].open("wb") as out:
            subprocess.run(pitui, check=True, env=env, stdout=out, stderr=subprocess.DEVNULL)
    pi_copy = OUT / "large-pi-export-copy.jsonl"  # Pi may append to a file it opens
    pi_copy.write_bytes(session.read_bytes())
    pages["pi --export"] = OUT / "export-pi.html"
    pi = [node, str(PI_CLI), "--export", str(pi_copy), str(pages["pi --export"])]
    subprocess.run(pi, check=True, env=env, capture_output=True)
    return pages


def _shown(times: list[float | None], timeout: float) -> str:
    drawn = [t for t in times if t is not None]
    if not drawn:
        return f"not drawn within {timeout:.0f} s"
    return (
        f"{min(drawn):6.2f} s (best of {len(drawn)}; all: {', '.join(f'{t:.2f}' for t in drawn)})"
    )


def _size(size: int) -> str:
    return f"{size / 1e3:6.1f} KB" if size < 1e6 else f"{size / 1e6:6.1f} MB"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--entries", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=300.0)
    parser.add_argument("--one-page", action="store_true", help="pitui's page as one file too")
    args = parser.parse_args()
    from oracle import oracle_available

    from pitui.demo.generate import generate_large_session

    chromium = shutil.which("chromium")
    node = oracle_available()
    if chromium is None or node is None:
        raise SystemExit("needs chromium (apt-get install chromium) and the Pi oracle")
    OUT.mkdir(parents=True, exist_ok=True)
    session = OUT / f"large-{args.entries}.jsonl"
    if not session.exists():
        generate_large_session(session, n_entries=args.entries)
    home = Path(tempfile.mkdtemp(prefix="pitui-bench-home-"))
    env = {**os.environ, "HOME": str(home), "PI_CODING_AGENT_DIR": str(home / ".pi/agent")}
    pages = exports(session, node, env, args.one_page)
    times: dict[str, list[float | None]] = {name: [] for name in pages}
    peaks: dict[str, int] = dict.fromkeys(pages, 0)
    for _ in range(args.repeats):
        for name, page in pages.items():
            if None in times[name]:
                continue  # it timed out once: no need to wait as long again
            seconds, peak = open_in_browser(chromium, page, args.timeout)
            times[name].append(seconds)
            peaks[name] = max(peaks[name], peak)
    print(f"session: {args.entries} entries, {session.stat().st_size / 1e6:.0f} MB; "
          f"load average {os.getloadavg()[0]:.2f}; {time.strftime('%Y-%m-%d %H:%M')}")  # fmt: skip
    for name, page in pages.items():
        print(f"{name:<12} page {_size(page.stat().st_size)}  drawn in "
              f"{_shown(times[name], args.timeout)}; peak PSS {peaks[name] / 1e6:,.0f} MB")  # fmt: skip
    shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
