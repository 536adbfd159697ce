"""pitui's own folders follow their environment variables, else the platform's folders."""

from __future__ import annotations

from pathlib import Path

import pytest

from pitui.core import user_dirs


@pytest.mark.parametrize(
    ("function", "variable", "xdg"),
    [
        (user_dirs.cache_dir, "PITUI_CACHE_DIR", "XDG_CACHE_HOME"),
        (user_dirs.data_dir, "PITUI_DATA_DIR", "XDG_DATA_HOME"),
        (user_dirs.config_dir, "PITUI_CONFIG_DIR", "XDG_CONFIG_HOME"),
    ],
)
def test_variable_then_platform_folder(
    function: object, variable: str, xdg: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(variable, str(tmp_path / "chosen"))
    assert function() == tmp_path / "chosen"  # type: ignore[operator]
    monkeypatch.delenv(variable)
    monkeypatch.setenv(xdg, str(tmp_path / "xdg"))
    assert function() == tmp_path / "xdg" / "pitui"  # type: ignore[operator]
