"""Labels and names written as Pi writes them, read back by Pi's own code; nothing else touched."""

from __future__ import annotations

import errno
import json
import os
import random
import re
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pitui.core.changes import writer
from pitui.core.changes.writer import (
    ConcurrentWriteWarning,
    activity_warning,
    sanitize_name,
    set_label,
    set_name,
)
from pitui.core.errors import PituiError
from pitui.core.format import ids
from pitui.core.session.session import Session
from pitui.demo.generate import (
    generate_v1_session,
    generate_v2_session,
    generate_varied_session,
    write_session,
)

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "pi-real-v1-large-session.jsonl"
HEX8 = re.compile(r"^[0-9a-f]{8}$")
ISO = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")
OLD = 1_600_000_000  # an mtime far in the past: no "recently modified" warning


def _age(path: Path) -> Path:
    os.utime(path, (OLD, OLD))
    return path


@pytest.fixture
def v3(tmp_path: Path) -> Path:
    header, entries = generate_varied_session(random.Random(7))
    path = write_session(tmp_path / "v3.jsonl", header, entries)
    path.chmod(0o640)
    return _age(path)


@pytest.fixture
def v1(tmp_path: Path) -> Path:
    header, entries = generate_v1_session(random.Random(11))
    return _age(write_session(tmp_path / "v1.jsonl", header, entries))


@pytest.fixture
def v2(tmp_path: Path) -> Path:
    header, entries = generate_v2_session(random.Random(12))
    return _age(write_session(tmp_path / "v2.jsonl", header, entries))


def _lines(path: Path) -> list[bytes]:
    return path.read_bytes().split(b"\n")[:-1]


def _last(path: Path) -> dict[str, Any]:
    return json.loads(_lines(path)[-1])


def _ids(path: Path) -> list[str]:
    return [e.id for e in Session(path).tree.entries]


# --------------------------------------------------------------------------- v3 appends


@pytest.mark.oracle
def test_label_is_what_pi_reads(v3: Path, pi_oracle: Any) -> None:
    before = v3.read_bytes()
    ids = _ids(v3)
    target = ids[3]
    new_id = set_label(v3, target, 'checkpoint ✓ "quoted"')
    after = v3.read_bytes()
    assert after.startswith(before) and after.count(b"\n") == before.count(b"\n") + 1
    line = _last(v3)
    assert list(line) == ["type", "id", "parentId", "timestamp", "targetId", "label"]
    assert line["type"] == "label" and line["id"] == new_id and HEX8.match(new_id)
    assert new_id not in ids
    assert line["parentId"] == ids[-1] and line["targetId"] == target
    assert ISO.match(line["timestamp"])
    assert after.endswith(b"\n") and b", " not in _lines(v3)[-1]
    result = pi_oracle.request({"op": "open", "file": str(v3)})
    assert result["labels"][target] == 'checkpoint ✓ "quoted"'
    assert result["leafId"] == new_id
    assert v3.read_bytes() == after  # Pi's open left it alone
    assert (v3.stat().st_mode & 0o777) == 0o640


@pytest.mark.oracle
def test_cleared_label_has_no_label_key(v3: Path, pi_oracle: Any) -> None:
    target = _ids(v3)[2]
    set_label(v3, target, "x", force=True)
    before = v3.read_bytes()
    cleared = set_label(v3, target, None, force=True)
    assert v3.read_bytes().startswith(before)
    line = _last(v3)
    assert list(line) == ["type", "id", "parentId", "timestamp", "targetId"]
    assert line["id"] == cleared
    assert target not in pi_oracle.request({"op": "open", "file": str(v3)})["labels"]
    set_label(v3, target, "", force=True)  # "" clears too
    assert "label" not in _last(v3)


@pytest.mark.oracle
def test_name_is_what_pi_reads(v3: Path, pi_oracle: Any, tmp_path: Path) -> None:
    before = v3.read_bytes()
    new_id = set_name(v3, " \ufeff Fix the\r\n\r\nlogin bug\n\t")
    assert v3.read_bytes().startswith(before)
    line = _last(v3)
    assert list(line) == ["type", "id", "parentId", "timestamp", "name"]
    assert line["name"] == "Fix the login bug" and line["id"] == new_id
    result = pi_oracle.request({"op": "open", "file": str(v3)})
    assert result["sessionName"] == "Fix the login bug"
    listed = pi_oracle.request({"op": "listAll", "sessionDir": str(tmp_path)})
    assert [s["name"] for s in listed if s["path"] == str(v3)] == ["Fix the login bug"]


def test_name_sanitising_is_javascript_trim() -> None:
    assert sanitize_name("a\r\r\n\nb") == "a b"
    assert sanitize_name("\u3000\u00a0x\u2028") == "x"
    assert sanitize_name("\x1cx\x85") == "\x1cx\x85"  # not JS whitespace: kept
    assert sanitize_name("\r\n") == ""


def test_ids_are_fresh_and_chain(v3: Path) -> None:
    first = set_label(v3, _ids(v3)[0], "a", force=True)
    second = set_name(v3, "n", force=True)
    assert _last(v3)["parentId"] == first
    assert len({first, second, *_ids(v3)}) == len(_ids(v3))


def test_id_collision_falls_back_like_pi(v3: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    taken = _ids(v3)[0]
    monkeypatch.setattr(ids.secrets, "token_hex", lambda n: taken)
    new_id = set_name(v3, "n", force=True)
    assert len(new_id) == 36 and new_id.count("-") == 4


def test_unknown_entry_is_refused(v3: Path) -> None:
    before = v3.read_bytes()
    with pytest.raises(PituiError, match="no entry with id 'nope'"):
        set_label(v3, "nope", "x", force=True)
    assert v3.read_bytes() == before


def test_non_session_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "x.jsonl"
    path.write_text('{"type":"message"}\n')
    with pytest.raises(PituiError):
        set_name(path, "n", force=True)
    assert path.read_text() == '{"type":"message"}\n'


# --------------------------------------------------------------------------- partial lines


def test_partial_last_line_is_refused(v3: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(writer, "PARTIAL_WAIT_SECONDS", 0.2)
    with v3.open("ab") as handle:
        handle.write(b'{"type":"message","id":"abcd')
    before = v3.read_bytes()
    with pytest.raises(PituiError, match="incomplete line"):
        set_label(v3, _ids(v3)[0], "x", force=True)
    with pytest.raises(PituiError, match="incomplete line"):
        set_name(v3, "x", force=True)
    assert v3.read_bytes() == before


def test_partial_line_completed_while_waiting(v3: Path) -> None:
    rest = b'0123","parentId":null,"timestamp":"2025-01-01T00:00:00.000Z"}\n'
    with v3.open("ab") as handle:
        handle.write(b'{"type":"custom","customType":"t","id":"abcd')
    before = v3.read_bytes()

    def finish() -> None:
        time.sleep(0.3)
        with v3.open("ab") as handle:
            handle.write(rest)

    thread = threading.Thread(target=finish)
    thread.start()
    set_name(v3, "after", force=True)
    thread.join()
    lines = _lines(v3)
    assert v3.read_bytes().startswith(before + rest)
    assert json.loads(lines[-2])["id"] == "abcd0123"
    assert json.loads(lines[-1])["parentId"] == "abcd0123"


# --------------------------------------------------------------------------- migration


_ID_TOKEN = re.compile(rb'"([0-9a-f]{8})"')


def _pi_migration(path: Path, pi_oracle: Any, tmp_path: Path) -> bytes:
    """The bytes Pi's own migration writes for a copy of `path`."""
    copy = tmp_path / "pi-copy" / path.name
    copy.parent.mkdir(exist_ok=True)
    shutil.copyfile(path, copy)
    pi_oracle.request({"op": "open", "file": str(copy)})
    return copy.read_bytes()


def _same_modulo_ids(pi_bytes: bytes, ours: bytes) -> None:
    """Pi's rewrite equals ours once Pi's random ids are mapped to ours by position."""
    pi_lines, our_lines = pi_bytes.split(b"\n"), ours.split(b"\n")
    assert len(pi_lines) == len(our_lines)
    mapping: dict[bytes, bytes] = {}
    for pi_line, our_line in zip(pi_lines, our_lines, strict=True):
        if not pi_line:
            continue
        pi_value, our_value = json.loads(pi_line), json.loads(our_line)
        if isinstance(pi_value, dict) and pi_value.get("type") != "session":
            mapping[pi_value["id"].encode()] = our_value["id"].encode()
    mapped = _ID_TOKEN.sub(lambda m: b'"' + mapping.get(m[1], m[1]) + b'"', pi_bytes)
    for number, (a, b) in enumerate(zip(mapped.split(b"\n"), our_lines, strict=True)):
        assert a == b, f"line {number + 1} differs"


def _check_migration(path: Path, pi_oracle: Any, tmp_path: Path) -> None:
    shown = _ids(path)
    expected = _pi_migration(path, pi_oracle, tmp_path)
    path.chmod(0o604)
    target = shown[len(shown) // 2]
    new_id = set_label(path, target, "migrated", force=True)
    ours = path.read_bytes()
    body, _, appended = ours[:-1].rpartition(b"\n")
    assert json.loads(appended)["id"] == new_id
    assert json.loads(appended)["parentId"] == shown[-1]
    _same_modulo_ids(expected, body + b"\n")
    header = json.loads(ours.split(b"\n", 1)[0])
    assert header["version"] == 3
    assert (path.stat().st_mode & 0o777) == 0o604
    result = pi_oracle.request({"op": "open", "file": str(path)})
    assert path.read_bytes() == ours  # Pi does not migrate it again
    assert [row["id"] for row in result["tree"]] != []
    assert {row["id"] for row in result["tree"]} == {*shown, new_id}
    assert result["labels"][target] == "migrated"
    assert _ids(path) == [*shown, new_id]  # pitui shows the same ids after the rewrite
    assert not [p for p in path.parent.iterdir() if ".pitui-" in p.name]


@pytest.mark.oracle
def test_v1_migration_matches_pi(v1: Path, pi_oracle: Any, tmp_path: Path) -> None:
    assert Session(v1).version == 1
    _check_migration(v1, pi_oracle, tmp_path)
    compaction = next(json.loads(x) for x in _lines(v1) if b'"compaction"' in x)
    assert "firstKeptEntryIndex" not in compaction
    assert list(compaction)[-1] == "firstKeptEntryId"  # appended at the end, as Pi does


@pytest.mark.oracle
def test_v2_migration_matches_pi(v2: Path, pi_oracle: Any, tmp_path: Path) -> None:
    assert Session(v2).version == 2
    _check_migration(v2, pi_oracle, tmp_path)
    assert b"hookMessage" not in v2.read_bytes()


@pytest.mark.oracle
def test_real_v1_session_migration_matches_pi(tmp_path: Path, pi_oracle: Any) -> None:
    path = tmp_path / FIXTURE.name
    shutil.copyfile(FIXTURE, path)
    _check_migration(_age(path), pi_oracle, tmp_path)


TRICKY_V1 = (
    b'{"type":"session","id":"s-1","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/tmp"}\r\n'
    b"\n"
    b"not json at all\n"
    b'{"type":"message","timestamp":"2025-01-01T00:00:01.000Z","message":{"role":"user",'
    b'"content":"h\\u00e9llo \\ud800 \\u0001 \\/","timestamp":1.0}}\n'
    b'{"type":"custom","customType":"k","timestamp":"2025-01-01T00:00:02.000Z",'
    b'"data":{"b":1,"10":2,"2":3,"01":4,"x":1e21,"y":1.5e-7,"z":0.000001,"w":-0.0,'
    b'"big":12345678901234567890,"e":1E2}}\n'
    b'{"type":"session","id":"extra","timestamp":"2025-01-01T00:00:03.000Z"}\n'
    b'{"type":"compaction","timestamp":"2025-01-01T00:00:04.000Z","summary":"s",'
    b'"firstKeptEntryIndex":4,"tokensBefore":10}\n'
    b'{"type":"message","timestamp":"2025-01-01T00:00:05.000Z","message":{"role":'
    b'"hookMessage","customType":"h","content":"x","display":true}}\n'
)


@pytest.mark.oracle
def test_tricky_v1_migration_matches_pi(tmp_path: Path, pi_oracle: Any) -> None:
    path = tmp_path / "tricky.jsonl"
    path.write_bytes(TRICKY_V1)
    _check_migration(_age(path), pi_oracle, tmp_path)


def test_v1_with_non_object_line_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "odd.jsonl"
    path.write_bytes(TRICKY_V1 + b"[1,2]\n")
    before = path.read_bytes()
    with pytest.raises(PituiError, match="not a JSON object"):
        set_name(path, "n", force=True)
    assert path.read_bytes() == before


# --------------------------------------------------------------------------- errors


def _failing_open(code: int, only_create: bool = False) -> Any:
    real_open = os.open

    def fake(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if flags & (os.O_WRONLY | os.O_RDWR) and (not only_create or flags & os.O_CREAT):
            raise OSError(code, os.strerror(code), str(path))
        return real_open(path, flags, *args, **kwargs)

    return fake


@pytest.mark.parametrize(
    ("code", "message"),
    [(errno.EROFS, "read-only"), (errno.EACCES, "permission denied"), (errno.ENOSPC, "disk")],
)
def test_unwritable_file(
    v3: Path, monkeypatch: pytest.MonkeyPatch, code: int, message: str
) -> None:
    before = v3.read_bytes()
    monkeypatch.setattr(os, "open", _failing_open(code))
    with pytest.raises(PituiError, match=message):
        set_label(v3, _ids(v3)[0], "x", force=True)
    assert v3.read_bytes() == before


def test_disk_full_during_write(v3: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    before = v3.read_bytes()

    def full(fd: int, data: bytes) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "write", full)
    with pytest.raises(PituiError, match="disk is full"):
        set_name(v3, "n", force=True)
    assert v3.read_bytes() == before


def test_short_write_then_disk_full_leaves_no_partial_line(
    v3: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = v3.read_bytes()
    real_write = os.write
    calls = []

    def short_then_full(fd: int, data: bytes) -> int:
        calls.append(len(data))
        if len(calls) == 1:
            return real_write(fd, data[:10])
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "write", short_then_full)
    with pytest.raises(PituiError, match="disk is full"):
        set_name(v3, "n", force=True)
    assert v3.read_bytes() == before


def test_short_writes_are_completed(v3: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real_write = os.write
    monkeypatch.setattr(os, "write", lambda fd, data: real_write(fd, data[:7]))
    set_name(v3, "a name long enough to need several writes", force=True)
    assert _last(v3)["name"] == "a name long enough to need several writes"


def test_migration_read_only_folder(v1: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    before = v1.read_bytes()
    monkeypatch.setattr(os, "open", _failing_open(errno.EACCES, only_create=True))
    with pytest.raises(PituiError, match=r"temporary file in .*permission denied"):
        set_name(v1, "n", force=True)
    assert v1.read_bytes() == before
    assert not [p for p in v1.parent.iterdir() if ".pitui-" in p.name]


def test_migration_disk_full(v1: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    before = v1.read_bytes()
    real_write = os.write

    def full_after_some(fd: int, data: bytes) -> int:
        return real_write(fd, data[:100]) if len(data) > 1000 else _raise_enospc()

    monkeypatch.setattr(os, "write", full_after_some)
    with pytest.raises(PituiError, match="disk is full"):
        set_name(v1, "n", force=True)
    assert v1.read_bytes() == before
    assert not [p for p in v1.parent.iterdir() if ".pitui-" in p.name]


def _raise_enospc() -> int:
    raise OSError(errno.ENOSPC, "No space left on device")


@pytest.fixture
def immutable() -> Iterator[Any]:
    """`chattr +i`: refuses writes even to root (the honest read-only test we can run)."""
    marked: list[Path] = []

    def mark(path: Path) -> None:
        done = subprocess.run(["chattr", "+i", str(path)], capture_output=True, check=False)
        if done.returncode != 0:
            pytest.skip(f"chattr +i unavailable: {done.stderr.decode().strip()}")
        marked.append(path)

    yield mark
    for path in marked:
        subprocess.run(["chattr", "-i", str(path)], check=False)


@pytest.mark.skipif(shutil.which("chattr") is None, reason="no chattr")
def test_really_read_only_file(v3: Path, immutable: Any) -> None:
    before = v3.read_bytes()
    immutable(v3)
    with pytest.raises(PituiError, match=r"cannot write .*not permitted"):
        set_label(v3, _ids(v3)[0], "x", force=True)
    assert v3.read_bytes() == before


@pytest.mark.skipif(shutil.which("chattr") is None, reason="no chattr")
def test_really_read_only_folder_v1(v1: Path, immutable: Any) -> None:
    before = v1.read_bytes()
    immutable(v1.parent)
    with pytest.raises(PituiError, match="temporary file"):
        set_name(v1, "n", force=True)
    assert v1.read_bytes() == before


# --------------------------------------------------------------------------- concurrency


def test_recently_modified_warns(v3: Path) -> None:
    os.utime(v3)  # now
    warning = activity_warning(v3)
    assert warning is not None and "modified" in warning
    before = v3.read_bytes()
    with pytest.raises(ConcurrentWriteWarning) as caught:
        set_name(v3, "n")
    assert caught.value.message == str(caught.value) and "modified" in str(caught.value)
    assert isinstance(caught.value, PituiError)
    assert v3.read_bytes() == before
    set_name(v3, "n", force=True)
    assert _last(v3)["name"] == "n"


def test_our_own_recent_write_does_not_warn(v3: Path) -> None:
    set_name(v3, "first", force=True)
    assert activity_warning(v3) is None
    set_name(v3, "second")  # no warning: the last change was ours
    with v3.open("ab") as handle:  # someone else appends
        handle.write(b'{"type":"custom","customType":"x","id":"00000001","parentId":null}\n')
    assert "modified" in (activity_warning(v3) or "")


def test_quiet_file_has_no_warning(v3: Path) -> None:
    assert activity_warning(v3) is None


@pytest.mark.skipif(not Path("/proc/self/fdinfo").is_dir(), reason="needs Linux /proc")
def test_open_for_writing_by_another_process_warns(v3: Path) -> None:
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys,time; f=open(sys.argv[1],'ab'); print('ready',flush=True); time.sleep(60)",
            str(v3),
        ],
        stdout=subprocess.PIPE,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == b"ready"
        _age(v3)
        warning = activity_warning(v3)
        assert warning is not None and f"pid {holder.pid}" in warning
        with pytest.raises(ConcurrentWriteWarning, match="open for writing"):
            set_label(v3, _ids(v3)[0], "x")
    finally:
        holder.kill()
        holder.wait()
    assert activity_warning(v3) is None


@pytest.mark.skipif(not Path("/proc/self/fdinfo").is_dir(), reason="needs Linux /proc")
def test_open_for_reading_does_not_warn(v3: Path) -> None:
    with v3.open("rb"):
        reader = subprocess.Popen(
            [
                sys.executable,
                "-c",
                "import sys,time; f=open(sys.argv[1]); print('ready',flush=True); time.sleep(60)",
                str(v3),
            ],
            stdout=subprocess.PIPE,
        )
        try:
            assert reader.stdout is not None and reader.stdout.readline().strip() == b"ready"
            assert activity_warning(v3) is None
        finally:
            reader.kill()
            reader.wait()


WRITER = r"""
import json, os, sys
path, stop, limit = sys.argv[1], sys.argv[2], int(sys.argv[3])
fd = os.open(path, os.O_WRONLY | os.O_APPEND)
expected = os.fstat(fd).st_size  # the file's size if only this process writes
print("ready", flush=True)
n = 0
since = None  # n when pitui's first entry was seen: the budget counts from there
while since is None or n - since < limit:
    if n % 100 == 0:
        if since is None and os.fstat(fd).st_size != expected:
            since = n
        if since is not None and n > since and os.path.exists(stop):
            break
    entry = {"type": "custom", "customType": "stress", "id": f"w{n:07d}", "parentId": None,
             "timestamp": "2025-01-01T00:00:00.000Z", "data": {"n": n, "pad": "x" * (n % 300)}}
    data = (json.dumps(entry, separators=(",", ":")) + "\n").encode()
    assert os.write(fd, data) == len(data)
    expected += len(data)
    n += 1
print(n, flush=True)
"""


def _interleaved(path: Path, start: int) -> bool:
    """Whether some stress line lies between pitui's first and last entries after `start`."""
    kinds = [b'"customType":"stress"' in line for line in path.read_bytes()[start:].splitlines()]
    ours = [i for i, stress in enumerate(kinds) if not stress]
    return len(ours) > 1 and any(kinds[ours[0] : ours[-1]])


@pytest.mark.oracle
def test_concurrent_writer_loses_nothing(v3: Path, pi_oracle: Any, tmp_path: Path) -> None:
    """A process appends as fast as it can while pitui labels and names (20 times, and on
    until the writer has run between pitui's writes: its budget, 30k lines, counts from
    pitui's first entry, so a slow pitui on a busy machine cannot find it finished)."""
    before = v3.read_bytes()
    stop = tmp_path / "stop"
    proc = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(v3), str(stop), "30000"], stdout=subprocess.PIPE
    )
    assert proc.stdout is not None and proc.stdout.readline().strip() == b"ready"
    target = _ids(v3)[1]
    ours: list[str] = []
    try:
        for n in range(1000):
            ours.append(set_label(v3, target, f"label {n}", force=True))
            ours.append(set_name(v3, f"name {n}", force=True))
            if (n >= 19 or proc.poll() is not None) and _interleaved(v3, len(before)):
                break
    finally:
        stop.touch()
    count = int(proc.stdout.readline())
    assert proc.wait(timeout=60) == 0
    data = v3.read_bytes()
    assert data.startswith(before) and data.endswith(b"\n")
    new = [json.loads(line) for line in data[len(before) :].split(b"\n")[:-1]]
    stress = [e["data"]["n"] for e in new if e.get("customType") == "stress"]
    assert stress == list(range(count))
    assert [e["id"] for e in new if e["type"] in ("label", "session_info")] == ours
    assert len(new) == count + len(ours)
    first_ours = next(i for i, e in enumerate(new) if e["type"] == "label")
    last_ours = max(i for i, e in enumerate(new) if e["type"] in ("label", "session_info"))
    interleaved = [e for e in new[first_ours:last_ours] if e.get("customType") == "stress"]
    assert interleaved, "the writer must really run while pitui writes"
    result = pi_oracle.request({"op": "open", "file": str(v3)})
    last_name = next(e["name"] for e in reversed(new) if e["type"] == "session_info")
    assert result["sessionName"] == last_name
    last_label = next(e["label"] for e in reversed(new) if e["type"] == "label")
    assert result["labels"][target] == last_label


def test_last_attempt_waits_for_a_line_caught_half_written(
    v3: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The writer keeps appending, so the last attempt writes anyway; if it catches the other
    writer's line half-visible, it waits for the line to complete (never refuses for it, never
    glues the label onto it)."""
    line = json.dumps({"type": "custom", "customType": "x", "id": "ffff0001", "parentId": None})
    half = len(line) // 2

    def busy_writer(session: Session, fd: int) -> bool:
        with v3.open("ab") as handle:  # another writer's line, half visible for 0.2 s
            handle.write(line[:half].encode())
        threading.Timer(0.2, lambda: v3.open("ab").write((line[half:] + "\n").encode())).start()
        return False  # never in step: the file keeps growing

    monkeypatch.setattr(writer, "APPEND_ATTEMPTS", 1)
    monkeypatch.setattr(writer, "_in_step", busy_writer)
    new_id = set_label(v3, _ids(v3)[1], "kept", force=True)
    lines = v3.read_bytes().splitlines()
    assert json.loads(lines[-2])["id"] == "ffff0001"
    assert json.loads(lines[-1])["id"] == new_id


def test_an_entry_without_an_id_is_neither_labelled_nor_edited(tmp_path: Path) -> None:
    """pitui shows such an entry under a stand-in id (`line:2`); a label or an edit naming
    it would point at nothing Pi reads (Pi itself writes a label with no target, which then
    labels every entry without an id). Refused, the file unchanged."""
    from pitui.core.changes import context_edit

    path = tmp_path / "s.jsonl"
    stamp = "2026-01-01T00:00:00.000Z"
    lines = [
        {"type": "session", "version": 3, "id": "s", "timestamp": stamp, "cwd": "/w"},
        {"type": "message", "id": "u1", "parentId": None, "timestamp": stamp,
         "message": {"role": "user", "content": "first", "timestamp": 1}},
        {"type": "message", "parentId": "u1", "timestamp": stamp,
         "message": {"role": "user", "content": "no id", "timestamp": 2}},
    ]  # fmt: skip
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    before = path.read_bytes()
    assert [e.id for e in Session(path).tree.entries] == ["u1", "line:3"]
    with pytest.raises(PituiError, match="the entry on line 3 has no id: it cannot be labelled"):
        writer.set_label(path, "line:3", "x", force=True)
    with pytest.raises(PituiError, match="the entry on line 3 has no id: it cannot be edited"):
        context_edit.omit(path, "line:3", force=True)
    assert path.read_bytes() == before
    writer.set_label(path, "u1", "fine", force=True)  # an entry with an id still can be
    assert Session(path).tree.labels["u1"].text == "fine"
