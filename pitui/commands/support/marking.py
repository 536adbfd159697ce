"""What `pitui pin`, `unpin`, `tag` and `untag` share: the file's session id and the store."""

from __future__ import annotations

import argparse

from pitui.commands.support.utf8_arguments import utf8_argument
from pitui.core.rows.safe_text import one_line
from pitui.core.userdata.identity import session_id_of
from pitui.core.userdata.store import UserData


def add_file_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="session .jsonl file(s)")


def add_tag_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="session .jsonl file")
    parser.add_argument("tags", nargs="+", metavar="TAG", help="tag (no spaces)")


def set_pinned(files: list[str], pinned: bool) -> int:
    store = UserData()
    sessions = [session_id_of(path) for path in files]  # every file checked before any write
    for session_id, path in sessions:
        changed = store.set_pinned(session_id, path, pinned)
        state = "pinned" if pinned else "unpinned"
        print(f"{state if changed else 'already ' + state} {one_line(path)}")
    return 0


def change_tags(file: str, tags: list[str], add: bool) -> int:
    for tag in tags:
        utf8_argument(tag, "tag")
    session_id, path = session_id_of(file)
    store = UserData()
    if add:
        changed = store.add_tags(session_id, path, tags)
    else:
        changed = store.remove_tags(session_id, path, tags)
    now = store.marks().tags_of(session_id)
    verb = "tagged" if add else "untagged"
    done = " ".join(changed) if changed else "(no change)"
    print(f"{verb} {one_line(path)}: {one_line(done)}; tags now: {one_line(' '.join(now)) or '-'}")
    return 0
