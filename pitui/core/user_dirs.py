"""pitui's own folders: the cache (the index, only ever a cache), user data (pins and tags)
and configuration (settings). Each can be moved by an environment variable; otherwise the
platform's user folders (platformdirs). Light on purpose: write commands import it."""

from __future__ import annotations

import os
from pathlib import Path


def cache_dir() -> Path:
    return _folder("PITUI_CACHE_DIR", "user_cache_dir")


def data_dir() -> Path:
    return _folder("PITUI_DATA_DIR", "user_data_dir")


def config_dir() -> Path:
    return _folder("PITUI_CONFIG_DIR", "user_config_dir")


def _folder(variable: str, platform_function: str) -> Path:
    env = os.environ.get(variable)
    if env:
        return Path(env)
    import platformdirs

    return Path(getattr(platformdirs, platform_function)("pitui"))
