"""What pitui remembers between runs: the theme and the session screen's layout.

A small JSON file in the user config folder (`platformdirs`; `PITUI_CONFIG_DIR` overrides
it). Reading never fails (a missing or damaged file gives the defaults); writing goes to a
temporary file renamed into place, and a failure only costs the remembered layout.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path

import orjson
from platformdirs import user_config_dir

from pitui.core.errors import PituiError
from pitui.core.format.jsonline import JsonValue
from pitui.core.regular_file import read_small

ENV_CONFIG_DIR = "PITUI_CONFIG_DIR"
THEMES = ("pitui-dark", "pitui-light")
PANES = ("tree", "message", "context")
SYNC_EVERY_DEFAULT = 30
TREE_SHARE_DEFAULT = 5  # the tree's width in fr; message 4fr, context 3fr: the tree is widest
TREE_SHARE_RANGE = (1, 12)
SETTINGS_LIMIT = 16 * 1024 * 1024  # as `discovery` reads the same file


@dataclass
class Settings:
    theme: str = THEMES[0]
    tree_share: int = TREE_SHARE_DEFAULT
    hidden_panes: list[str] = field(default_factory=list)
    archive_dir: str | None = None  # read by `discovery.archive_root`; kept when saving
    sync_every: int = SYNC_EVERY_DEFAULT  # seconds between the picker's syncs of remotes; 0: off


def config_dir() -> Path:
    value = os.environ.get(ENV_CONFIG_DIR)
    if value:
        return Path(value).expanduser()
    return Path(user_config_dir("pitui"))


def settings_path() -> Path:
    return config_dir() / "settings.json"


def load_settings(path: Path | None = None) -> Settings:
    path = path or settings_path()
    try:
        raw: JsonValue = orjson.loads(read_small(path, SETTINGS_LIMIT))  # never a FIFO
    except (OSError, PituiError, orjson.JSONDecodeError):
        return Settings()
    return from_json(raw)


def from_json(raw: JsonValue) -> Settings:
    """Only the values pitui understands; anything else keeps its default."""
    settings = Settings()
    if not isinstance(raw, dict):
        return settings
    if raw.get("theme") in THEMES:
        settings.theme = raw["theme"]
    share = raw.get("tree_share")
    low, high = TREE_SHARE_RANGE
    if isinstance(share, int) and not isinstance(share, bool) and low <= share <= high:
        settings.tree_share = share
    if isinstance(raw.get("archive_dir"), str):
        settings.archive_dir = raw["archive_dir"]
    every = raw.get("sync_every")
    if isinstance(every, int) and not isinstance(every, bool) and every >= 0:
        settings.sync_every = every
    hidden = raw.get("hidden_panes")
    if isinstance(hidden, list):
        kept = [p for p in PANES if p in hidden]
        if len(kept) < len(PANES):  # at least one pane stays visible
            settings.hidden_panes = kept
    return settings


def save_settings(settings: Settings, path: Path | None = None) -> None:
    """Write atomically (temporary file, then rename). Call from a thread worker."""
    path = path or settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    data = orjson.dumps(asdict(settings), option=orjson.OPT_INDENT_2)
    fd, temp = tempfile.mkstemp(prefix=".settings-", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(data)
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
