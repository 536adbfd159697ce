#!/usr/bin/env python3
"""Write the export samples of `screenshots/`: the demo's branched checkout session exported.

    .venv/bin/python scripts/export_samples.py [OUTPUT_DIR]

`export.md` and `export.html` are `pitui export FILE --redact` (Markdown, then `--format
html`) of the demo session "Checkout: try decimal.js instead". `export-light.png` and
`export-dark.png` are that page drawn by headless Chromium (the first 1000x1400 pixels, with
prefers-color-scheme light, then dark); without a Chromium on the PATH (Debian:
`apt-get install chromium-headless-shell`) they are left as they are, and the script says so.
The demo store is deterministic, so reruns give the same Markdown and HTML.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pitui.demo.generate import write_demo_store  # noqa: E402

SESSION_ID = "019ad9b1-cea0-7f9a-9e15-5e8c6202bce5"  # the demo's "Checkout: try decimal.js instead"
BROWSERS = ("chromium-headless-shell", "chromium", "chromium-browser", "google-chrome")
WINDOW = "1000,1400"


def export(session: Path, fmt: str, target: Path) -> Path:
    command = [sys.executable, "-m", "pitui", "export", str(session), "--redact", "--format", fmt]
    subprocess.run([*command, "-o", str(target), "--force"], check=True)
    return target


def draw(browser: str, page: Path, target: Path, dark: bool) -> Path:
    # Blink's preferredColorScheme: 0 is dark, 1 is light
    scheme = f"--blink-settings=preferredColorScheme={0 if dark else 1}"
    command = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", scheme]
    shot = [f"--window-size={WINDOW}", f"--screenshot={target}", page.resolve().as_uri()]
    subprocess.run([*command, *shot], check=True, capture_output=True)
    return target


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="pitui-export-") as tmp:
        sessions = write_demo_store(Path(tmp) / "agent")
        (session,) = sessions.rglob(f"*_{SESSION_ID}.jsonl")
        export(session, "md", out / "export.md")  # pitui says "wrote PATH"
        page = export(session, "html", out / "export.html")
    browser = next((b for b in BROWSERS if shutil.which(b)), None)
    if browser is None:
        print("no Chromium on the PATH: export-light.png and export-dark.png left as they are")
        return
    print(draw(browser, page, out / "export-light.png", dark=False))
    print(draw(browser, page, out / "export-dark.png", dark=True))


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "screenshots")
