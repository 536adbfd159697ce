#!/usr/bin/env python3
"""Write SVG screenshots of the stats screen (alt+s) from the demo data into `screenshots/`.

    .venv/bin/python scripts/screenshots_stats.py [OUTPUT_DIR]

Uses the helpers of `screenshots.py` (same frozen clock, same demo store). The demo store
has few days and models; the second picture is of a generated store of 300 sessions.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from pitui.demo.generate import generate_store, write_demo_store
from screenshots import ROOT, press, shoot


async def stats(pilot: Any) -> None:
    await press(pilot, "alt+s")
    await pilot.pause(0.5)


async def stats_by_model(pilot: Any) -> None:
    await stats(pilot)
    await press(pilot, *"bbb")


async def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="pitui-shots-") as tmp:
        demo = write_demo_store(Path(tmp) / "agent")
        many = Path(tmp) / "many" / "sessions"
        generate_store(many, 300, 40, seed=7)
        then = time.time() - 3600
        for file in [*demo.rglob("*.jsonl"), *many.rglob("*.jsonl")]:
            os.utime(file, (then, then))
        print(await shoot("stats", stats, demo, Path(tmp) / "cache", out))
        print(await shoot("stats-by-model", stats_by_model, many, Path(tmp) / "cache2", out))


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "screenshots"))
