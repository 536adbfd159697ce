"""The arguments of Pi's `write` and `edit` calls as Pi's tools take them (1.6.0's
`tools/write.js`, `tools/edit.js`): `write {path, content}`; `edit {path, edits: [{oldText,
newText}]}`, normalised first as `prepareEditArguments` does (`edits` sent as a JSON string
or as a single object; the legacy top-level `oldText`/`newText` appended to the edits)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from pitui.core.format.jsonline import js_integer

FILE_TOOLS = ("write", "edit")


@dataclass(frozen=True, slots=True)
class Replacement:
    old_text: str
    new_text: str


def _is_single_edit(value: Any) -> bool:
    """Pi's isSingleEditInput: an object (not an array) whose oldText and newText are strings."""
    return (
        isinstance(value, dict)
        and isinstance(value.get("oldText"), str)
        and isinstance(value.get("newText"), str)
    )


def prepare_edit_arguments(arguments: Any) -> Any:
    """Pi's prepareEditArguments, without changing `arguments` (Pi changes them in place)."""
    if not isinstance(arguments, dict):
        return arguments
    args = dict(arguments)
    edits = args.get("edits")
    if isinstance(edits, str):
        try:
            parsed = json.loads(edits, parse_int=js_integer)  # as JSON.parse reads numbers
        except (ValueError, RecursionError):
            parsed = None
        if isinstance(parsed, list):
            args["edits"] = parsed
        elif _is_single_edit(parsed):
            args["edits"] = [parsed]
    elif _is_single_edit(edits):
        args["edits"] = [edits]
    if not isinstance(args.get("oldText"), str) or not isinstance(args.get("newText"), str):
        return args
    listed = list(args["edits"]) if isinstance(args.get("edits"), list) else []
    listed.append({"oldText": args.pop("oldText"), "newText": args.pop("newText")})
    args["edits"] = listed
    return args


def edit_replacements(arguments: Any) -> list[Replacement] | None:
    """The replacements of an edit call as Pi's tool runs them; None when Pi would refuse
    the arguments (no edits, an edit without string oldText/newText)."""
    args = prepare_edit_arguments(arguments)
    if not isinstance(args, dict):
        return None
    edits = args.get("edits")
    if not isinstance(edits, list) or not edits:
        return None
    if not all(_is_single_edit(edit) for edit in edits):
        return None
    return [Replacement(edit["oldText"], edit["newText"]) for edit in edits]


def call_path(arguments: Any) -> str | None:
    """The `path` argument of a write or edit call, when it is a string."""
    if not isinstance(arguments, dict):
        return None
    path = arguments.get("path")
    return path if isinstance(path, str) else None


def write_content(arguments: Any) -> str | None:
    if not isinstance(arguments, dict):
        return None
    content = arguments.get("content")
    return content if isinstance(content, str) else None
