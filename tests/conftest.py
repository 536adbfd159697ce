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
