"""`AppConfig`: everything the app needs to know from the command line (or a test)."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from pitui.ui.settings import Settings


@dataclass
class AppConfig:
    """Everything the app needs to know from the command line (or a test)."""

    sessions_root: Path | None = None
    session_file: Path | None = None
    custom_dir: Path | None = None
    cwd: str = field(default_factory=os.getcwd)
    all_scope: bool = False
    remotes_in_all: bool = True  # the "all" scope lists the remotes' mirrors too
    watch: bool = True
    pi_command: str | None = None
    now: Callable[[], datetime] | None = None
    home: str | None = None
    keymap: dict[str, str] = field(default_factory=dict)
    settings: Settings = field(default_factory=Settings)
    keymap_notices: list[str] = field(default_factory=list)
