"""The folder moves `pitui move` recorded, as the readers of written paths use them: what
any session of this machine wrote under a folder before it moved (by an absolute path, or a
relative one resolved there) is what is now under the new folder; what is written there
after the move is whatever is there then."""

from __future__ import annotations

from pitui.core.errors import PituiError
from pitui.core.format.pi_paths import is_within
from pitui.core.userdata.store import CwdMove, UserData


def folder_moves() -> dict[str, list[CwdMove]]:
    """The folder moves `pitui move` recorded, by session id (none when unreadable)."""
    try:
        return UserData().cwd_moves()
    except PituiError:
        return {}


def in_order(moves: dict[str, list[CwdMove]]) -> list[CwdMove]:
    """The folder moves, each once (a move is recorded for every session it took), oldest
    first."""
    return sorted({move for held in moves.values() for move in held}, key=lambda m: m.at)


def earlier_paths(targets: tuple[str, ...], moves: dict[str, list[CwdMove]]) -> tuple[str, ...]:
    """`targets`, and where they were before the recorded folder moves (a session that
    moved wrote them there by absolute path): what the index is asked about."""
    found = list(targets)
    every = {(move.old, move.new) for held in moves.values() for move in held}
    for path in found:  # grows: a folder moved twice leads back twice
        for old, new in every:
            if is_within(new, path) and (earlier := old + path[len(new) :]) not in found:
                found.append(earlier)
    return tuple(found)


def with_earlier_paths(targets: tuple[str, ...]) -> tuple[str, ...]:
    """`earlier_paths` of the moves recorded now (the catalog's `file:PATH`)."""
    return earlier_paths(targets, folder_moves())
