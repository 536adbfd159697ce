"""Fixtures the command tests share."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An agent folder with no sessions yet (`file_edits.sessions_folder`), pitui's
    cache beside it, and a project folder (the current folder) holding src/."""
    agent = tmp_path / "agent"
    (agent / "sessions").mkdir(parents=True)
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(agent))
    monkeypatch.setenv("PITUI_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("PI_CODING_AGENT_SESSION_DIR", raising=False)
    project = tmp_path / "proj"
    (project / "src").mkdir(parents=True)
    monkeypatch.chdir(project)
    return project
