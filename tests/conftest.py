# --- Pi oracle fixture (self-contained; other fixtures may follow below) -----------------------
from __future__ import annotations

import os
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


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test that runs Pi's code is an oracle test, marked or not (so the fast loop's
    `-m "not oracle"` leaves all of them out)."""
    for item in items:
        if "pi_oracle" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.oracle)


# --- end of Pi oracle fixture ------------------------------------------------------------------


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto`: one and a half workers per core. A third of a worker's time is spent
    waiting (a real terminal drawing, a child process starting, a debounce), so two workers
    on two cores left the machine a third idle."""
    return max(2, (os.cpu_count() or 1) * 3 // 2)


_USER_FOLDERS = {"XDG_CACHE_HOME": "cache", "XDG_DATA_HOME": "data", "XDG_CONFIG_HOME": "config"}
_saved_user_folders: dict[str, str | None] = {}


def pytest_configure(config: pytest.Config) -> None:
    """No test reads or writes the real user's cache, data, config or trash folders. Set
    before any test module is imported: send2trash reads XDG_DATA_HOME once, at its import
    (a fixture would come too late, and the trash tests would fill the user's own trash)."""
    import tempfile

    base = Path(tempfile.mkdtemp(prefix="pitui-test-user-folders-"))
    _saved_user_folders.update({name: os.environ.get(name) for name in _USER_FOLDERS})
    _saved_user_folders["base"] = str(base)
    for name, folder in _USER_FOLDERS.items():
        os.environ[name] = str(base / folder)


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    """A pytest-xdist worker's slow teardown, done before it says it finished. Once every
    worker has said so, execnet gives each 5 s to end and then sends it SIGINT; pytest's
    own teardown (after that message) runs `gc.collect()` five times, and on a loaded
    machine a large heap made that exceed 5 s: the SIGINT then landed in the gc callback
    hypothesis installs, and the run ended with a KeyboardInterrupt traceback per worker.
    Collected here, then frozen, those collections have nothing left to walk (pytest's
    unraisable-exception hook is still installed, so nothing it would report is lost)."""
    _restore_user_folders()
    if hasattr(session.config, "workerinput"):
        import gc

        gc.collect()
        gc.freeze()


def pytest_unconfigure(config: pytest.Config) -> None:
    _restore_user_folders()  # a session that ended before its finish


def _restore_user_folders() -> None:
    import os
    import shutil

    base = _saved_user_folders.pop("base", None)
    if base is None:
        return
    for name, value in _saved_user_folders.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
    _saved_user_folders.clear()
    shutil.rmtree(base, ignore_errors=True)


@pytest.fixture
def agent(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Pi's agent folder holding the demo corpus (12 sessions and one .jsonl file that is not
    a session), pitui's cache beside it: a command's store. A test file may define its own."""
    from pitui.demo.generate import generate_corpus

    agent = tmp_path / "agent"
    generate_corpus(agent / "sessions", seed=11, count=12)
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(agent))
    monkeypatch.setenv("PITUI_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("PI_CODING_AGENT_SESSION_DIR", raising=False)
    return agent


@pytest.fixture
def home_trash(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The freedesktop home trash in the test's folder, on the same device: for send2trash
    (which reads XDG_DATA_HOME once, when first imported) and for `pitui restore` (which
    reads it each time). Returns the trash folder."""
    from send2trash import plat_other

    data_home = tmp_path / "xdg-data"
    data_home.mkdir(exist_ok=True)
    monkeypatch.setenv("XDG_DATA_HOME", str(data_home))
    monkeypatch.setattr(plat_other, "XDG_DATA_HOME", os.fsencode(data_home))
    monkeypatch.setattr(plat_other, "HOMETRASH_B", os.fsencode(data_home / "Trash"))
    monkeypatch.setattr(plat_other, "HOMETRASH", str(data_home / "Trash"))
    monkeypatch.setattr(plat_other, "get_dev", lambda path: 1)  # "same device as home"
    return data_home / "Trash"
