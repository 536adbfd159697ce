"""Worker failures, reported in one place.

Textual posts `Worker.StateChanged` only to the node that started the worker (it does not
bubble), so screens and widgets with workers take this mixin and forward failures to
`PituiApp.report_worker_failure`: a notification with the error's message, never a traceback.
"""

from __future__ import annotations

from textual.worker import Worker, WorkerState


class ReportsFailures:
    """Mixin for DOM nodes that run workers."""

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state == WorkerState.ERROR:
            self.app.report_worker_failure(event.worker)  # type: ignore[attr-defined]
