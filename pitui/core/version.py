"""pitui's version as installed: `pitui --version` and the MCP server's `serverInfo`."""

from __future__ import annotations


def pitui_version() -> str:
    # deferred: importlib.metadata, ~20 ms off a subcommand
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("pitui")
    except PackageNotFoundError:
        return "(version unknown: not installed)"
