"""pitui's own folders: the cache (the index, only ever a cache), user data (pins and tags)
and configuration (settings). Each can be moved by an environment variable; otherwise the
platform's user folders (platformdirs). Light on purpose: write commands import it."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path


def cache_dir() -> Path:
    from pathlib import Path  # deferred: pathlib, ~3 ms off a kept answer

    return Path(cache_folder())


def cache_folder() -> str:
    """`cache_dir()` as a string (a warm `pitui list` answers before pathlib is imported)."""
    return _folder_text("PITUI_CACHE_DIR", "user_cache_dir")


def data_dir() -> Path:
    return _folder("PITUI_DATA_DIR", "user_data_dir")


def config_dir() -> Path:
    return _folder("PITUI_CONFIG_DIR", "user_config_dir")


def _folder(variable: str, platform_function: str) -> Path:
    from pathlib import Path  # deferred: pathlib, ~3 ms off a kept answer

    return Path(_folder_text(variable, platform_function))


def _folder_text(variable: str, platform_function: str) -> str:
    env = os.environ.get(variable)
    if env:
        return env
    import platformdirs  # deferred: ~7 ms off an answer when a variable names the folder

    return str(getattr(platformdirs, platform_function)("pitui"))
