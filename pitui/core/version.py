"""pitui's version as installed: `pitui --version` and the MCP server's `serverInfo`."""

from __future__ import annotations


def pitui_version() -> str:
    from importlib.metadata import PackageNotFoundError, version  # deferred: see ARCHITECTURE.md

    try:
        return version("pitui")
    except PackageNotFoundError:
        return "(version unknown: not installed)"
