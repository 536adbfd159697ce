"""Sizes read the same on every screen: the picker's column, the sizes view, the trash and
an image in the message pane."""

from __future__ import annotations

from pitui.ui.display_text import human_size
from pitui.ui.screens import trash_view
from pitui.ui.widgets import message_parts


def test_sizes_in_binary_units_up_to_gigabytes() -> None:
    sizes = [0, 1023, 1024, 1536, 1 << 20, 5 << 29, 3 << 30]
    shown = ["0 B", "1023 B", "1.0 KB", "1.5 KB", "1.0 MB", "2.5 GB", "3.0 GB"]
    assert [human_size(size) for size in sizes] == shown


def test_one_size_text_for_every_screen() -> None:
    assert message_parts.human_size is human_size
    assert trash_view.human_size is human_size
