"""The floor of any Textual app here: launch to one line of text on screen, nothing else
imported (`bench_tui_launch.py --part picker` times it beside pitui and Pi)."""

from textual.app import App, ComposeResult
from textual.widgets import Static


class Floor(App[None]):
    def compose(self) -> ComposeResult:
        yield Static("textual floor: ready")


if __name__ == "__main__":
    Floor().run()
