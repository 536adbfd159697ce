"""Pi's toolCallMap: how each tool call shows (`[read: path]`), by call id.

Pi fills it while walking the tree, active branch first, so where two assistant entries use
the same call id (some providers number calls per turn: call_0, call_1...) the one walked
last gives every result with that id its name. Ids rarely repeat: the map is filled in file
order, and only repeated ids are settled by a walk.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pitui.core.rows.row_text import ToolCall, home_dir, tool_call_text
from pitui.core.session.entry import Entry


class ToolCallMap:
    def __init__(self) -> None:
        self.texts: dict[Any, str] = {}
        self._home = home_dir()  # paths under it show as ~/...
        self._owner: dict[Any, int] = {}  # call id -> index of the entry that made it
        self._repeated: dict[Any, dict[int, str]] = {}  # call id -> its text per entry

    @property
    def has_repeats(self) -> bool:
        return bool(self._repeated)

    def add(self, entry: Entry, found: list[ToolCall]) -> None:
        texts, owners, index, home = self.texts, self._owner, entry.index, self._home
        for call_id, name, arguments in found:  # as tool_call_texts(), once per call
            try:
                text = tool_call_text(name, arguments, home)
            except TypeError:  # Pi cannot show it
                continue
            try:
                owner = owners.setdefault(call_id, index)
            except TypeError:  # an id no map can hold (an object, a list)
                continue
            if owner != index:
                self._repeated.setdefault(call_id, {owner: texts[call_id]})[index] = text
            texts[call_id] = text

    def settle(self, walk: Iterable[Entry]) -> None:
        """Give each repeated id the text of its entry that `walk` (Pi's order) reaches last."""
        owners = {index for texts in self._repeated.values() for index in texts}
        position = {entry.index: n for n, entry in enumerate(walk) if entry.index in owners}
        for call_id, texts in self._repeated.items():
            walked = [index for index in texts if index in position]
            if walked:
                self.texts[call_id] = texts[max(walked, key=position.__getitem__)]
