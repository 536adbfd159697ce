"""Worker failures, reported in one place.

Textual posts `Worker.StateChanged` only to the node that started the worker (it does not
bubble), so every screen and widget that runs workers takes `ReportsFailures`, which hands
failures to the app's `report_worker_failure` (`PituiApp`: `notify_failure`): a notification
with the error's message, never a traceback, and the app keeps running.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ParamSpec, Protocol, TypeVar, runtime_checkable

from textual import work
from textual.app import App
from textual.worker import Worker, WorkerState

from pitui.core.errors import PituiError

if TYPE_CHECKING:
    from textual.message_pump import MessagePump as _Node  # the node this mixin is part of
else:
    _Node = object


@runtime_checkable
class FailureReporter(Protocol):
    """The app's one handler of worker failures (`PituiAppBase`)."""

    def report_worker_failure(self, worker: Worker[object]) -> None: ...


def notify_failure(app: App[Any], worker: Worker[object]) -> None:
    """The notification for a failed worker: what it was doing and the error's message."""
    error = worker.error
    what = worker.description or worker.name or "background work"
    text = str(error) if isinstance(error, PituiError) else f"{type(error).__name__}: {error}"
    app.notify(text, title=f"Failed: {what}", severity="error", markup=False, timeout=8)


Params = ParamSpec("Params")
Result = TypeVar("Result")


def thread_worker(
    group: str, description: str, *, exclusive: bool = False
) -> Callable[[Callable[Params, Result]], Callable[Params, Worker[Result]]]:
    """`@work` for a method run in a thread: a failure is reported (`ReportsFailures`), named
    by `description`, instead of ending the app; `exclusive`: a new start cancels the one
    running in `group`."""
    return work(
        thread=True, exclusive=exclusive, group=group, exit_on_error=False, description=description
    )


class ReportsFailures(_Node):
    """Mixin for DOM nodes that run workers (`thread_worker`, or `exit_on_error=False`).

    Textual calls the handler of every class along the MRO: a subclass's own
    `on_worker_state_changed` must not call `super()` (the failure would be reported twice)."""

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state == WorkerState.ERROR:
            app = self.app
            if isinstance(app, FailureReporter):
                app.report_worker_failure(event.worker)
            else:  # a widget hosted by another app (e.g. in a test)
                notify_failure(app, event.worker)
