"""Exports of a session: Markdown, HTML, a Pi session file; secrets optionally redacted.

`export.export_session` does the work; `options` is what can be asked for, light enough for
the app to import at launch (the renderers load only when an export is made)."""
