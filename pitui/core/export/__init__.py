"""Exports of a session: Markdown, HTML, a Pi session file; secrets optionally redacted."""

from pitui.core.export.export import (
    EXTENSIONS,
    FORMATS,
    ExportOptions,
    ExportResult,
    export_session,
)

__all__ = ["EXTENSIONS", "FORMATS", "ExportOptions", "ExportResult", "export_session"]
