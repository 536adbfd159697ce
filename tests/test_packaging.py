"""The wheel ships the stylesheet and an installed pitui finds it; it installs what `pitui mcp`
needs."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(out), str(REPO)],
        check=True,
        capture_output=True,
        timeout=600,
    )
    return next(out.glob("pitui-*.whl"))


def test_wheel_contains_stylesheet_and_package(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    assert "pitui/pitui.tcss" in names
    assert "pitui/core/session/reader.py" in names and "pitui/ui/app.py" in names
    stylesheet = zipfile.ZipFile(wheel).read("pitui/pitui.tcss").decode()
    assert stylesheet == (REPO / "pitui.tcss").read_text()


def test_installed_wheel_finds_its_stylesheet(wheel: Path, tmp_path: Path) -> None:
    target = tmp_path / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "-q",
            "--no-deps",
            "--target",
            str(target),
            str(wheel),
        ],
        check=True,
        capture_output=True,
        timeout=600,
    )
    code = "import pitui.ui.app as a; p = a.stylesheet_path(); print(p); assert p.is_file()"
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={"PYTHONPATH": str(target), "PATH": "/usr/bin:/bin"},
    )
    assert result.returncode == 0, result.stderr
    assert Path(result.stdout.strip()).is_relative_to(target)


def test_pitui_mcp_needs_no_extra(wheel: Path) -> None:
    """`pip install .` (the README's install) brings the MCP SDK: `pi mcp add pitui -- pitui
    mcp` works without an extra."""
    archive = zipfile.ZipFile(wheel)
    metadata = archive.read(next(n for n in archive.namelist() if n.endswith("/METADATA")))
    requires = [
        line for line in metadata.decode().splitlines() if line.startswith("Requires-Dist:")
    ]
    mcp = [line for line in requires if line.split()[1].startswith("mcp")]
    assert mcp and all("extra ==" not in line for line in mcp)
