# --- Pi oracle fixture (self-contained; other fixtures may follow below) -----------------------
from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

_TESTS_DIR = Path(__file__).resolve().parent
for _p in (str(_TESTS_DIR.parent), str(_TESTS_DIR), str(_TESTS_DIR / "hostile")):
    if _p not in sys.path:
        sys.path.insert(0, _p)

from oracle import PiOracle, oracle_available, oracle_unavailable_reason  # noqa: E402


@pytest.fixture(scope="session")
def pi_oracle() -> Iterator[PiOracle]:
    """A running Pi oracle; skips only when Node/Pi cannot be installed."""
    node = oracle_available()
    if node is None:
        pytest.skip(f"Node/Pi oracle cannot be installed: {oracle_unavailable_reason()}")
    oracle = PiOracle(node)
    try:
        yield oracle
    finally:
        oracle.close()


# --- end of Pi oracle fixture ------------------------------------------------------------------


@pytest.fixture(scope="session", autouse=True)
def _user_folders_in_tmp(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """No test reads or writes the real user's cache, data, config or trash folders."""
    import os

    base = tmp_path_factory.mktemp("user-folders")
    names = {"XDG_CACHE_HOME": "cache", "XDG_DATA_HOME": "data", "XDG_CONFIG_HOME": "config"}
    saved = {name: os.environ.get(name) for name in names}
    for name, folder in names.items():
        os.environ[name] = str(base / folder)
    yield
    for name, value in saved.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
