#!/usr/bin/env python3
"""Write an SVG screenshot of the session screen's size view (alt+s) from the demo data
into `screenshots/`.

    .venv/bin/python scripts/screenshots_sizes.py [OUTPUT_DIR]

Uses the helpers of `screenshots.py` (same frozen clock, same demo store).
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

from pitui.demo.generate import write_demo_store
from screenshots import ROOT, open_session, press, shoot


async def size_view(pilot: Any) -> None:
    await open_session(pilot, "rounding")
    await press(pilot, "alt+s")
    await pilot.pause(0.3)
    await press(pilot, "down", "down")


async def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="pitui-shots-") as tmp:
        demo = write_demo_store(Path(tmp) / "agent")
        then = time.time() - 3600
        for file in demo.rglob("*.jsonl"):
            os.utime(file, (then, then))
        print(await shoot("size-view", size_view, demo, Path(tmp) / "cache", out))


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "screenshots"))
