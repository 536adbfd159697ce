"""What `pitui check` found in each session file, remembered per file (path, size, mtime,
inode, ctime) in `check-cache.json` in the cache folder, so that a second `pitui check --all`
reads only the files that changed (10,000 sessions: 38 s to read them all).

A file's findings depend only on its bytes and on the rules. The rules are the code that reads
and checks Pi's format (`core/format`, `core/session`), so the cache's identity holds a
fingerprint of those modules' sources: a pitui whose rules changed checks every file again.
The stat is taken before the file is read: one that grows meanwhile is read again next time.
Written to a temporary file renamed into place; a damaged or unwritable cache is only rebuilt,
never an error.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import orjson

import pitui.core.format
import pitui.core.session
from pitui.core.cache_file import file_stamp, read_cache, regular_stat, write_cache
from pitui.core.session.check import Problem, SessionCheck, check_session
from pitui.core.version import pitui_version

SCHEMA_VERSION = "pitui-check-1"
FILE_NAME = "check-cache.json"
RULES = (pitui.core.format, pitui.core.session)  # the packages whose code the findings follow

# per file: [size, mtime_ns, inode, ctime_ns, cwd or None, [[line, id or None, problem], ...]]
Record = list[Any]


class CheckCache:
    """`check(path)`: `check_session(path)`, read again only when the file changed."""

    def __init__(self, folder: Path | None) -> None:
        self.path = None if folder is None else folder / FILE_NAME
        self.notice: str | None = None
        self._meta = _meta()
        self._files: dict[str, Record] = self._load()
        self._dirty = False

    def _load(self) -> dict[str, Record]:
        if self.path is None:
            return {}
        raw, _, self.notice = read_cache(self.path, "check cache")
        try:
            data = orjson.loads(raw) if raw is not None else {}
        except orjson.JSONDecodeError:
            return {}  # absent or damaged: rebuilt
        if not isinstance(data, dict) or data.get("meta") != self._meta:
            return {}
        files = data.get("files")
        return files if isinstance(files, dict) else {}

    def check(self, path: str) -> SessionCheck:
        st = regular_stat(path)
        if st is None:  # not a regular file, or gone: checked as is (it says why)
            return check_session(path)
        kept = _from_record(self._files.get(path), file_stamp(st))
        if kept is not None:
            return kept
        found = check_session(path)
        self._files[path] = [
            *file_stamp(st),
            found.cwd,
            [_problem_record(p) for p in found.problems],
        ]
        self._dirty = True
        return found

    def close(self) -> None:
        """Write the cache if it changed."""
        if not self._dirty or self.path is None:
            return
        self._dirty = False
        value = {"meta": self._meta, "files": self._files}
        self.notice = write_cache(self.path, value, "check cache") or self.notice


def _meta() -> dict[str, str]:
    digest = hashlib.blake2b(pitui_version().encode(), digest_size=8)
    for package in RULES:
        if package.__file__ is None:
            continue
        for source in sorted(Path(package.__file__).parent.glob("*.py")):
            digest.update(source.name.encode() + b"\0" + source.read_bytes())
    return {"schema": SCHEMA_VERSION, "rules": digest.hexdigest()}


def _problem_record(problem: Problem) -> list[Any]:
    return [problem.line, problem.id, problem.problem]


def _from_record(record: object, stamp: list[int]) -> SessionCheck | None:
    """The findings kept for a file with this stat (None: none kept, or not valid)."""
    if not isinstance(record, list) or len(record) != 6 or record[:4] != stamp:
        return None
    cwd, problems = record[4], record[5]
    if not (cwd is None or isinstance(cwd, str)) or not isinstance(problems, list):
        return None
    found = []
    for item in problems:
        if not (isinstance(item, list) and len(item) == 3):
            return None
        line, entry_id, text = item
        if type(line) is not int or not isinstance(text, str):
            return None
        if not (entry_id is None or isinstance(entry_id, str)):
            return None
        found.append(Problem(line, entry_id, text))
    return SessionCheck(found, cwd)
