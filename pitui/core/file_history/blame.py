"""Which call wrote each line of a file as it is now.

The successful writes and edits that touched the file are replayed oldest first, from the
newest write (whatever came before it was overwritten), each edit located as Pi's edit tool
locates it; every line remembers the call that produced it, and lines an edit's window left
equal keep theirs. When the replay cannot go on (the file existed before any write, or was
changed by hand between two calls), the text before the next call is rebuilt from the file
on disk by undoing the later edits, newest first, and the replay goes on from there. The
replayed text is finally aligned with the file on disk (difflib): a line it does not
explain has no call."""

from __future__ import annotations

import difflib
import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from pitui.core.file_history.pi_edit import EditFailed, Span, apply_edits, normalize_to_lf
from pitui.core.file_history.session_changes import FileChange

_LINES = re.compile(r"[^\n]*\n|[^\n]+")


@dataclass(frozen=True, slots=True)
class BlamedLine:
    number: int  # 1-based
    text: str  # without its line end
    change: FileChange | None  # the call that wrote it; None when no session explains it

    def to_json(self) -> dict[str, object]:
        change = self.change
        return {
            "line": self.number,
            "text": self.text,
            "path": None if change is None else change.session_path,
            "sessionId": None if change is None else change.session_id,
            "id": None if change is None else change.entry_id,
            "timestamp": None if change is None else change.timestamp,
        }


@dataclass(frozen=True, slots=True)
class _Line:
    text: str  # with its "\n", but the last line of a file without one
    change: FileChange | None


def split_lines(text: str) -> list[str]:
    return _LINES.findall(text)


def _bare(line: str) -> str:
    return line[:-1] if line.endswith("\n") else line


def _as_lines(text: str, change: FileChange | None) -> list[_Line]:
    return [_Line(line, change) for line in split_lines(text)]


def _carry(before: Sequence[_Line], after: Sequence[str], change: FileChange | None) -> list[_Line]:
    """`after`'s lines, those equal to one of `before` (aligned by difflib) keeping its
    call, the others given `change`."""
    matcher = difflib.SequenceMatcher(
        None, [_bare(line.text) for line in before], [_bare(line) for line in after], False
    )
    out = [_Line(line, change) for line in after]
    for block in matcher.get_matching_blocks():
        for offset in range(block.size):
            out[block.b + offset] = _Line(after[block.b + offset], before[block.a + offset].change)
    return out


def _line_index(starts: Sequence[int], offset: int) -> int:
    """The line holding character `offset` (the last line for the end of the text)."""
    low, high = 0, len(starts) - 1
    while low < high:
        middle = (low + high + 1) // 2
        if starts[middle] <= offset:
            low = middle
        else:
            high = middle - 1
    return low


def _forward(state: list[_Line] | None, change: FileChange) -> list[_Line]:
    """The lines after `change`; raises `EditFailed` when Pi's tool could not have made this
    edit on this text (or the text is not known)."""
    if change.tool == "write":
        return _as_lines(normalize_to_lf(change.content or ""), change)
    if state is None:
        raise EditFailed("the text before this edit is not known")
    content = "".join(line.text for line in state)
    _, spans = apply_edits(content, change.edits)
    starts, position = [], 0
    for line in state:
        starts.append(position)
        position += len(line.text)
    windows: list[tuple[int, int, list[Span]]] = []  # first line, last line, spans
    for span in spans:
        first = _line_index(starts, span.index)
        last = _line_index(starts, span.index + span.length)
        if windows and first <= windows[-1][1]:
            windows[-1] = (windows[-1][0], max(last, windows[-1][1]), [*windows[-1][2], span])
        else:
            windows.append((first, last, [span]))
    out: list[_Line] = []
    kept = 0
    for first, last, members in windows:
        out += state[kept:first]
        old = state[first : last + 1]
        start = starts[first]
        text = "".join(line.text for line in old)
        for span in reversed(members):
            at = span.index - start
            text = text[:at] + span.new_text + text[at + span.length :]
        out += _carry(old, split_lines(text), change)
        kept = last + 1
    return out + state[kept:]


def _undo(text: str, change: FileChange) -> str | None:
    """The text before `change`, from the text after it: each newText found once and put
    back as its oldText; None when that cannot be known (a write, a deletion, a newText
    found twice or not at all)."""
    if change.tool != "edit" or not change.edits:
        return None
    found = []
    for edit in change.edits:
        old, new = normalize_to_lf(edit.old_text), normalize_to_lf(edit.new_text)
        if not new or text.count(new) != 1:
            return None
        found.append((text.index(new), len(new), old))
    found.sort()
    for (at, length, _), (after, _, _) in itertools.pairwise(found):
        if at + length > after:
            return None
    for at, length, old in reversed(found):
        text = text[:at] + old + text[at + length :]
    return text


def blame(changes: Sequence[FileChange], on_disk: str) -> list[BlamedLine]:
    """Each line of `on_disk` (the file's text now) with the call in `changes` (one file's
    successful writes and edits, any order) that last wrote it."""
    disk = normalize_to_lf(on_disk.removeprefix("\ufeff"))
    chain = sorted((c for c in changes if c.succeeded), key=lambda c: c.order)
    writes = [i for i, c in enumerate(chain) if c.tool == "write"]
    chain = chain[writes[-1] :] if writes else chain
    state: list[_Line] | None = None
    done = 0
    for change in chain:
        try:
            state = _forward(state, change)
        except EditFailed:
            break
        done += 1
    if done < len(chain):
        state = _rebuilt(state, chain, done, disk)
    final = _carry(state or [], split_lines(disk), None)
    return [BlamedLine(n, _bare(line.text), line.change) for n, line in enumerate(final, 1)]


def _rebuilt(
    state: list[_Line] | None, chain: list[FileChange], done: int, disk: str
) -> list[_Line] | None:
    """The replay resumed from the disk's text with the later edits undone, as far back as
    they can be (to `chain[done]` at best): calls not replayed explain no line."""
    text, undone = disk, len(chain)
    while undone > done:
        before = _undo(text, chain[undone - 1])
        if before is None:
            break
        text, undone = before, undone - 1
    resumed = _carry(state or [], split_lines(text), None)
    for change in chain[undone:]:
        try:
            resumed = _forward(resumed, change)
        except EditFailed:
            break
    return resumed
