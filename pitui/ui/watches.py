"""Watchers a widget set on another object, dropped when the widget goes.

`widget.watch(other, "attr", callback)` (and `data_bind`, which watches the compose parent)
registers `(widget, callback)` on `other`. Textual drops such an entry only when `attr`
next changes (textualize/textual#6666): until then the removed widget, and all it refers
to, stays alive. Footer keys watch their footer's `compact`, rebuilt with every change of
the bindings; code parts watch the app's `theme`, which rarely changes at all.
"""

from __future__ import annotations

from textual.dom import DOMNode

# Where Textual keeps those watchers: {attribute: [(owner, callback)]} on the watched object,
# set by `textual.reactive._watch` under this literal name (as of textual 8.2). No public
# way to remove one exists (textualize/textual#6666), so this module alone reads it.
_WATCHERS = "__watchers"


def forget_watches(owner: DOMNode, watched: object) -> int:
    """Drop the watchers `owner` or any of its descendants set on `watched`; how many.

    Call it before `owner` is removed (its descendants are found through their parents).
    Each list is replaced, not edited, so that a change being announced meanwhile still
    reaches every watcher it began with."""
    table = getattr(watched, _WATCHERS, None)
    if not isinstance(table, dict):
        return 0
    dropped = 0
    for name, entries in list(table.items()):
        kept = [entry for entry in entries if not _owned_by(entry, owner)]
        if len(kept) != len(entries):
            dropped += len(entries) - len(kept)
            table[name] = kept
    return dropped


def watch_count(watched: object) -> int:
    """How many watchers other objects have set on `watched` (for tests and benchmarks)."""
    table = getattr(watched, _WATCHERS, None)
    return sum(len(entries) for entries in table.values()) if isinstance(table, dict) else 0


def _owned_by(entry: object, owner: DOMNode) -> bool:
    node = entry[0] if isinstance(entry, tuple) and entry else None
    return isinstance(node, DOMNode) and owner in node.ancestors_with_self
