"""A line above the footer while an export runs in a worker: "exporting 40%" (issue 27).

The worker thread only posts messages to it (`moved`, `finished`: thread-safe), never
touches it; the line goes when the export ends, however it ends."""

from __future__ import annotations

from rich.text import Text
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Footer, Static


class ExportProgress(Static):
    DEFAULT_CSS = "ExportProgress { height: 1; padding: 0 1; background: $boost; }"

    class Moved(Message):
        def __init__(self, done: int, total: int) -> None:
            super().__init__()
            self.done, self.total = done, total

    class Finished(Message):
        pass

    def __init__(self) -> None:
        super().__init__(Text("exporting..."))

    def moved(self, done: int, total: int) -> None:
        """From any thread: the export's progress."""
        self.post_message(self.Moved(done, total))

    def finished(self) -> None:
        """From any thread: the export is over (the notification says how)."""
        self.post_message(self.Finished())

    def on_export_progress_moved(self, message: Moved) -> None:
        percent = 100 * message.done // message.total if message.total else 100
        self.update(Text(f"exporting {percent}%"))

    def on_export_progress_finished(self, message: Finished) -> None:
        self.remove()


def show_export_progress(screen: Widget) -> ExportProgress:
    """A new progress line on `screen`, just above its footer (or at its end)."""
    line = ExportProgress()
    footers = screen.query(Footer)
    if footers:
        screen.mount(line, before=footers.first())
    else:
        screen.mount(line)
    return line
