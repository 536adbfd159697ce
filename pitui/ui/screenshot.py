"""Textual's "Screenshot" command (Ctrl+K): an SVG of the screen, saved where the user finds
it and said where. Textual saves it to the Downloads folder only, which many machines (a
server over ssh, a container) lack: it then said "Failed to save screenshot"."""

from __future__ import annotations

from pathlib import Path

from platformdirs import user_downloads_path

from pitui.core.errors import PituiError
from pitui.core.rows.safe_text import one_line
from pitui.core.user_dirs import data_dir


def screenshot_folders(path: str | None = None) -> list[Path]:
    """Where a screenshot may go, in order: the folder asked for; else the user's Downloads
    folder if there is one, the current folder, pitui's data folder (made if missing)."""
    if path:
        return [Path(path).expanduser()]
    downloads = user_downloads_path()
    folders = [downloads] if downloads.is_dir() else []
    return [*folders, Path.cwd(), data_dir() / "screenshots"]


def save_screenshot(svg: str, name: str, folders: list[Path]) -> Path:
    """Write `svg` as a new file `name` in the first folder that takes it; its path."""
    problems = []
    for folder in folders:
        target = folder / name
        try:
            folder.mkdir(parents=True, exist_ok=True)
            with open(target, "x", encoding="utf-8") as file:
                file.write(svg)
        except OSError as error:
            problems.append(f"{one_line(str(folder))}: {one_line(error.strerror or str(error))}")
            continue
        return target
    raise PituiError("cannot save the screenshot (" + "; ".join(problems) + ")")
