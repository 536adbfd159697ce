"""Context edits: omit or replace a message in what the model is sent later, as Pi 1.6.0's
SessionManager.appendContextEdit appends them (the transcript itself is never changed).

Pi's projection applies, to each entry of a leaf's context, the latest `context_edit` in that
context naming it: `replacement: null` drops its messages, `{content}` replaces their content.
So an edit is undone by a later edit whose content is the original one, where that gives back
exactly the original message.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from pitui.core.changes.file_messages import no_entry
from pitui.core.changes.writer import append_entry, refuse_without_id
from pitui.core.errors import PituiError
from pitui.core.format.entry_types import EntryType
from pitui.core.session.entry import Entry
from pitui.core.session.session import Session
from pitui.core.session.tree import SessionTree

EDITABLE_ROLES = ("user", "assistant", "toolResult")
_TEXT_ARRAY_ROLES = ("assistant", "toolResult")


@dataclass(frozen=True, slots=True)
class EditResult:
    entry_id: str  # the appended context_edit entry
    in_context: bool  # whether the target is in the new leaf's context (else: no effect)


def omit(path: str | os.PathLike[str], target_id: str, *, force: bool = False) -> EditResult:
    """Leave `target_id`'s message out of the model's future context."""
    return append_context_edit(path, target_id, None, force=force)


def replace(
    path: str | os.PathLike[str], target_id: str, text: str, *, force: bool = False
) -> EditResult:
    """Send `text` to the model instead of `target_id`'s content from now on."""
    return append_context_edit(path, target_id, {"content": text}, force=force)


def restore(path: str | os.PathLike[str], target_id: str, *, force: bool = False) -> EditResult:
    """Undo earlier edits of `target_id`: a later edit giving back its original content."""
    session = Session(path)
    target = session.tree.get(target_id)
    if target is None:
        raise PituiError(no_entry(target_id, session.path))
    if not has_edits(session.tree, target_id):
        raise PituiError(f"{target_id} has no context edit to undo")
    replacement = restoring_replacement(target)
    if isinstance(replacement, str):
        raise PituiError(f"cannot undo the edits of {target_id}: {replacement}")
    return append_context_edit(path, target_id, replacement, force=force)


def has_edits(tree: SessionTree, target_id: str) -> bool:
    """Whether a context edit of `target_id` is in the session."""
    return any(
        e.type == EntryType.CONTEXT_EDIT and e.raw.get("targetId") == target_id
        for e in tree.entries
    )


def append_context_edit(
    path: str | os.PathLike[str],
    target_id: str,
    replacement: dict[str, Any] | None,
    *,
    force: bool = False,
) -> EditResult:
    """Append Pi's context_edit line for `target_id` (parentId: the file's leaf)."""
    check_replacement(replacement)
    read: list[Session] = []

    def fill(session: Session, entry: dict[str, Any]) -> None:
        target = target_on_branch(session, target_id)
        entry["targetId"] = target_id
        entry["replacement"] = normalised(replacement, role_of(target))
        read[:] = [session]

    entry_id = append_entry(path, "context_edit", fill, force=force)
    return EditResult(entry_id, _in_context(read[0], target_id, entry_id))


def check_replacement(replacement: Any) -> None:
    if replacement is None:
        return
    content = replacement.get("content") if isinstance(replacement, dict) else None
    if not isinstance(content, (str, list)):
        raise PituiError("Context edit replacement must be null or contain string/array content")


def target_on_branch(session: Session, target_id: str) -> Entry:
    """The target, if Pi's appendContextEdit accepts it; else PituiError with Pi's reason."""
    tree = session.tree
    target = tree.get(target_id)
    if target is None:
        raise PituiError(no_entry(target_id, session.path))
    refuse_without_id(target, "edited")
    leaf = tree.leaf
    if leaf is None or all(e.id != target_id for e in tree.ancestors(leaf.id)):
        raise PituiError(
            f"Entry {target_id} is not on the active branch "
            "(Pi edits only entries on the path to the file's last entry)"
        )
    if not editable(target):
        raise PituiError(
            f"Entry {target_id} does not contribute editable model content (a {describe(target)}"
            "; Pi edits only user, assistant, tool-result and custom messages)"
        )
    return target


def editable(entry: Entry) -> bool:
    return entry.type == EntryType.CUSTOM_MESSAGE or (
        entry.type == EntryType.MESSAGE and role_of(entry) in EDITABLE_ROLES
    )


def role_of(entry: Entry) -> str:
    """The message's role ("custom" for a custom_message), known without reading the line."""
    if entry.type != EntryType.MESSAGE:
        return "custom"
    return entry.role or ""


def describe(entry: Entry) -> str:
    if entry.type == EntryType.MESSAGE:
        return f"{role_of(entry) or 'role-less'} message"
    return entry.type.replace("_", " ") if entry.type else "typeless entry"


def normalised(replacement: dict[str, Any] | None, role: str) -> dict[str, Any] | None:
    """Pi stores a string replacing assistant or tool-result content as one text block."""
    if replacement is not None and role in _TEXT_ARRAY_ROLES:
        content = replacement["content"]
        if isinstance(content, str):
            return {"content": [{"type": "text", "text": content}]}
    return replacement


def restoring_replacement(target: Entry) -> dict[str, Any] | str:
    """The replacement that projects `target` exactly as unedited, or why there is none."""
    if not editable(target):
        return f"a {describe(target)} cannot be edited at all"
    if target.type == EntryType.CUSTOM_MESSAGE:
        content = target.raw.get("content")
        content = [] if content is None else content  # Pi's `entry.content ?? []`
    else:
        message = target.raw["message"]
        if "content" not in message:
            return "the message has no content field, and an edit always sets one"
        content = message["content"]
    if not isinstance(content, (str, list)):
        return "its content is neither text nor a list, which an edit cannot hold"
    if isinstance(content, str) and role_of(target) in _TEXT_ARRAY_ROLES:
        return "its content is plain text, which Pi stores back as a text block"
    return {"content": content}


def _in_context(session: Session, target_id: str, edit_id: str) -> bool:
    """Whether the target is in the context from the new edit (the session as read for the
    write, brought up to date: only the appended bytes are read)."""
    session.refresh()
    if session.tree.get(edit_id) is None:
        return True  # replaced meanwhile: nothing to say
    context = session.context(edit_id)
    return any(item.entry.id == target_id for item in context.items)
