"""Deterministic generators of realistic Pi session files.

Everything here writes files exactly as Pi 1.6.0 writes them: one
``JSON.stringify(entry) + "\\n"`` per line (reproduced with compact separators and
``ensure_ascii=False``; floats are kept in a range where Python and JavaScript print them
identically), a ``session`` header first, then entries with 8-hex ids linked by ``parentId``.

All randomness comes from a seeded :class:`random.Random`, and all clocks start from fixed base
dates, so the same arguments always produce the same bytes.

Used by tests (conformance corpus against the Pi oracle), benchmarks (large sessions and
stores) and ``pitui --demo`` (:func:`write_demo_store`).
"""

from __future__ import annotations

import base64
import json
import random
import struct
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

Entry = dict[str, Any]

BASE_MS = 1_767_225_600_000  # 2026-01-01T00:00:00.000Z
DEMO_BASE_MS = 1_764_583_200_000  # 2025-12-01T10:00:00.000Z
MISSING_PARENT_ID = "deadbeef"  # parent id of the deliberate orphan; never generated as an id

MODELS: tuple[tuple[str, str, str], ...] = (
    ("anthropic", "claude-sonnet-4-5", "anthropic-messages"),
    ("anthropic", "claude-opus-4-1", "anthropic-messages"),
    ("openai", "gpt-5.1-codex", "openai-responses"),
    ("google", "gemini-2.5-pro", "google-generative-ai"),
)
THINKING_LEVELS: tuple[str, ...] = ("off", "minimal", "low", "medium", "high")

CORPUS_CWDS: tuple[str, ...] = (
    "/home/dev/projects/webshop",
    "/home/dev/projects/pitui",
    "/home/dev/projects/data-pipeline",
    "/home/dev/my-notes",  # lossy: shares its folder with the next one
    "/home/dev-my/notes",
    "/home/dev/Documents/Übersetzung tool",
    "C:\\Users\\dev\\src\\winapp",
)


# ---------------------------------------------------------------------------
# Low-level helpers
# ---------------------------------------------------------------------------


def dumps(obj: Any) -> str:
    """Serialize like JavaScript's ``JSON.stringify`` (no spaces, raw non-ASCII)."""
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def write_session(path: Path | str, header: Entry, entries: Iterable[Entry]) -> Path:
    """Write a session file (header line, then one line per entry) and return its path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="\n", buffering=1 << 20) as f:
        f.write(dumps(header) + "\n")
        for entry in entries:
            f.write(dumps(entry) + "\n")
    return path


def session_dir_name(cwd: str) -> str:
    """Pi's folder name for a cwd: ``--`` + cwd sans leading separator, ``/\\:`` -> ``-``."""
    stripped = cwd[1:] if cwd[:1] in ("/", "\\") else cwd
    for ch in "/\\:":
        stripped = stripped.replace(ch, "-")
    return f"--{stripped}--"


def session_file_name(header: Entry) -> str:
    """``<timestamp with : and . replaced by ->_<session id>.jsonl``."""
    stamp = str(header["timestamp"]).replace(":", "-").replace(".", "-")
    return f"{stamp}_{header['id']}.jsonl"


def session_path(sessions_root: Path | str, header: Entry) -> Path:
    """Where Pi stores the session with this header under a sessions root."""
    return Path(sessions_root) / session_dir_name(str(header["cwd"])) / session_file_name(header)


def iso_ms(ms: int) -> str:
    """Unix milliseconds -> ``2026-01-01T00:00:00.000Z`` (JavaScript ``toISOString``)."""
    dt = datetime.fromtimestamp(ms / 1000, UTC)
    return dt.strftime("%Y-%m-%dT%H:%M:%S.") + f"{ms % 1000:03d}Z"


def uuid7(rng: random.Random, ms: int) -> str:
    """A UUIDv7 string (Pi's session ids) whose random bits come from ``rng``."""
    value = (ms & ((1 << 48) - 1)) << 80
    value |= 0x7 << 76
    value |= rng.getrandbits(12) << 64
    value |= 0b10 << 62
    value |= rng.getrandbits(62)
    h = f"{value:032x}"
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def uuid4(rng: random.Random) -> str:
    """A UUIDv4 string (old Pi session ids) from ``rng``."""
    value = rng.getrandbits(128)
    value = (value & ~(0xF << 76)) | (0x4 << 76)
    value = (value & ~(0b11 << 62)) | (0b10 << 62)
    h = f"{value:032x}"
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def make_header(
    rng: random.Random,
    cwd: str,
    ms: int,
    *,
    version: int | None = 3,
    parent_session: str | None = None,
    extra: Entry | None = None,
) -> Entry:
    """A session header; ``version=None`` gives a v1 header (no version key)."""
    header: Entry = {"type": "session"}
    if version is not None:
        header["version"] = version
    header["id"] = uuid7(rng, ms) if version == 3 else uuid4(rng)
    header["timestamp"] = iso_ms(ms)
    header["cwd"] = cwd
    if parent_session is not None:
        header["parentSession"] = parent_session
    if extra:
        header.update(extra)
    return header


def cost_value(x: float) -> float | int:
    """A cost that JavaScript and Python print identically (0, or >= 1e-4 with 6 decimals)."""
    if x <= 0:
        return 0
    x = max(round(x, 6), 0.0001)
    return int(x) if float(x).is_integer() else x


def make_usage(rng: random.Random, scale: int = 1) -> Entry:
    """A realistic assistant ``usage`` object with cost (Anthropic-like prices)."""
    inp = rng.randint(1, 40) * scale
    out = rng.randint(20, 1500)
    cache_read = rng.choice((0, rng.randint(2_000, 120_000)))
    cache_write = rng.randint(0, 4_000)
    cost = {
        "input": cost_value(inp * 3e-6),
        "output": cost_value(out * 15e-6),
        "cacheRead": cost_value(cache_read * 0.3e-6),
        "cacheWrite": cost_value(cache_write * 3.75e-6),
    }
    cost["total"] = cost_value(sum(float(v) for v in cost.values()))
    return {
        "input": inp,
        "output": out,
        "cacheRead": cache_read,
        "cacheWrite": cache_write,
        "totalTokens": inp + out + cache_read + cache_write,
        "cost": cost,
    }


def _png(width: int, height: int, rgb: tuple[int, int, int]) -> bytes:
    """A tiny solid-colour PNG."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    row = b"\x00" + bytes(rgb) * width
    raw = row * height
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", ihdr)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


def png_base64(width: int = 4, height: int = 4, rgb: tuple[int, int, int] = (200, 40, 40)) -> str:
    """Base64 of a small valid PNG (for image content blocks)."""
    return base64.b64encode(_png(width, height, rgb)).decode("ascii")


# ---------------------------------------------------------------------------
# Session builder: appends entries the way Pi's SessionManager does
# ---------------------------------------------------------------------------


@dataclass
class SessionBuilder:
    """Builds a v3 entry list: every append is a child of the current leaf, like Pi."""

    rng: random.Random
    ms: int
    entries: list[Entry] = field(default_factory=list)
    ids: set[str] = field(default_factory=set)
    leaf: str | None = None
    model: tuple[str, str, str] = MODELS[0]

    def tick(self, lo: int = 200, hi: int = 20_000) -> int:
        self.ms += self.rng.randint(lo, hi)
        return self.ms

    def new_id(self) -> str:
        while True:
            value = f"{self.rng.getrandbits(32):08x}"
            if value not in self.ids and value != MISSING_PARENT_ID:
                self.ids.add(value)
                return value

    def base(self, kind: str, parent: str | bool | None = True) -> Entry:
        """Entry base; ``parent=True`` means the current leaf."""
        self.tick()
        parent_id = self.leaf if parent is True else parent
        return {
            "type": kind,
            "id": self.new_id(),
            "parentId": parent_id,
            "timestamp": iso_ms(self.ms),
        }

    def push(self, entry: Entry) -> str:
        self.entries.append(entry)
        self.leaf = entry["id"]
        return str(entry["id"])

    def add(self, entry_type: str, parent: str | bool | None = True, **fields: Any) -> str:
        entry = self.base(entry_type, parent)
        entry.update(fields)
        return self.push(entry)

    def message(self, message: Entry, parent: str | bool | None = True) -> str:
        entry = self.base("message", parent)
        message["timestamp"] = self.ms - self.rng.randint(0, 5)
        entry["message"] = message
        return self.push(entry)

    # -- message shortcuts -------------------------------------------------

    def user(self, content: str | list[Entry], parent: str | bool | None = True) -> str:
        return self.message({"role": "user", "content": content}, parent)

    def assistant(
        self,
        blocks: list[Entry],
        stop: str = "stop",
        error: str | None = None,
        usage: Entry | None = None,
    ) -> str:
        provider, model, api = self.model
        msg: Entry = {
            "role": "assistant",
            "content": blocks,
            "api": api,
            "provider": provider,
            "model": model,
            "usage": usage or make_usage(self.rng),
            "stopReason": stop,
        }
        if error:
            msg["errorMessage"] = error
        return self.message(msg)

    def tool_result(self, call: Entry, text: str, is_error: bool = False) -> str:
        return self.message(
            {
                "role": "toolResult",
                "toolCallId": call["id"],
                "toolName": call["name"],
                "content": [{"type": "text", "text": text}],
                "isError": is_error,
            }
        )

    def tool_call(self, name: str, arguments: Entry) -> Entry:
        prefix = "toolu_" if self.model[0] == "anthropic" else "call_"
        suffix = "".join(
            self.rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz0123456789")
            for _ in range(24)
        )
        return {"type": "toolCall", "id": prefix + suffix, "name": name, "arguments": arguments}

    def set_model(self, index: int) -> str:
        self.model = MODELS[index % len(MODELS)]
        return self.add("model_change", provider=self.model[0], modelId=self.model[1])

    def label(self, target: str, label: str | None) -> str:
        """A label entry; ``None`` clears it (no ``label`` key: JSON.stringify drops undefined)."""
        if label is None:
            return self.add("label", targetId=target)
        return self.add("label", targetId=target, label=label)

    def custom(self, custom_type: str, data: Any) -> str:
        self.tick()
        entry = {"type": "custom", "customType": custom_type, "data": data}
        entry.update({"id": self.new_id(), "parentId": self.leaf, "timestamp": iso_ms(self.ms)})
        return self.push(entry)

    def custom_message(
        self, custom_type: str, content: Any, display: bool = True, details: Any = None
    ) -> str:
        self.tick()
        entry: Entry = {"type": "custom_message", "customType": custom_type, "content": content}
        entry["display"] = display
        if details is not None:
            entry["details"] = details
        entry.update({"id": self.new_id(), "parentId": self.leaf, "timestamp": iso_ms(self.ms)})
        return self.push(entry)

    def compaction(
        self,
        summary: str,
        first_kept: str | None,
        tokens_before: int,
        system_message: Entry | None = None,
        details: Entry | None = None,
    ) -> str:
        """A compaction; ``first_kept=None`` makes a retain-none compaction (points at itself)."""
        entry = self.base("compaction")
        entry["summary"] = summary
        entry["firstKeptEntryId"] = first_kept or entry["id"]
        entry["tokensBefore"] = tokens_before
        if details is not None:
            entry["details"] = details
        entry["fromHook"] = False
        if system_message is not None:
            entry["systemMessage"] = {**system_message, "timestamp": self.ms}
        return self.push(entry)

    def branch_summary(self, branch_from: str | None, from_id: str, summary: str) -> str:
        """Pi's ``branchWithSummary``: move the leaf to ``branch_from`` and summarise."""
        details = {"readFiles": ["src/app.py"], "modifiedFiles": []}
        return self.add(
            "branch_summary", parent=branch_from, fromId=from_id, summary=summary, details=details
        )

    def path_ids(self, leaf: str | None = None) -> list[str]:
        """Ids on the path root -> leaf (current leaf by default)."""
        by_id = {e["id"]: e for e in self.entries}
        out: list[str] = []
        cur = by_id.get(leaf or self.leaf or "")
        while cur is not None and len(out) <= len(by_id):
            out.append(cur["id"])
            cur = by_id.get(cur["parentId"]) if cur["parentId"] else None
        return out[::-1]

    def find_on_path(self, role: str) -> list[str]:
        by_id = {e["id"]: e for e in self.entries}
        return [
            i
            for i in self.path_ids()
            if by_id[i]["type"] == "message" and by_id[i]["message"].get("role") == role
        ]


# ---------------------------------------------------------------------------
# Content
# ---------------------------------------------------------------------------

_TOPICS: tuple[str, ...] = (
    "the checkout flow",
    "the session parser",
    "the CSV importer",
    "the retry logic in the HTTP client",
    "the database migrations",
    "the login form validation",
    "the tree view widget",
    "the caching layer",
    "the CI pipeline",
    "the logging configuration",
)
_FILES: tuple[str, ...] = (
    "src/app.py",
    "src/checkout/cart.ts",
    "pitui/core/session/reader.py",
    "tests/test_reader.py",
    "package.json",
    "README.md",
    "src/http/client.go",
    "migrations/0042_add_orders.sql",
    ".github/workflows/ci.yml",
    "config/logging.toml",
)
_ASKS: tuple[str, ...] = (
    "Can you look at {topic} and tell me why the tests fail?",
    "Please refactor {topic} so it is easier to test.",
    "Add type hints to {file} and fix whatever mypy complains about.",
    "Why is {topic} so slow on large inputs?",
    "Write a test that reproduces the bug in {topic}.",
    "Explain how {topic} works, I inherited this code.",
    "Rename the helper in {file} and update every caller.",
)
_THOUGHTS: tuple[str, ...] = (
    "The user wants me to look at {topic}. I should read {file} first and check how it is used.",
    "The failing assertion suggests an off-by-one error. Let me verify by reading {file}.",
    "There are two options: patch the caller or change the contract. Changing {file} is cleaner.",
)
_ANSWERS: tuple[str, ...] = (
    "I found the problem in `{file}`: the loop stops one element early, so the last item of "
    "{topic} is never processed. I changed the bound and added a regression test.",
    "I refactored {topic} into smaller functions and moved the I/O out of `{file}`. "
    "The behaviour is unchanged and the tests pass.",
    "The slowdown comes from re-reading `{file}` for every record. Caching the parsed result "
    "makes {topic} roughly 40x faster on the large fixture.",
    "Done. `{file}` now has full type hints; mypy reports no errors.",
)


def _fmt(rng: random.Random, templates: Sequence[str]) -> str:
    return rng.choice(templates).format(topic=rng.choice(_TOPICS), file=rng.choice(_FILES))


def _code_output(rng: random.Random, lines: int) -> str:
    names = ("parse", "load", "render", "cache", "index", "merge", "flush", "walk")
    out = []
    for i in range(lines):
        name = rng.choice(names)
        out.append(f"{i + 1:4d}  def {name}_{i}(self, value: int) -> int:  # {rng.choice(_TOPICS)}")
    return "\n".join(out)


SYSTEM_MESSAGE: Entry = {
    "role": "system",
    "content": "",
    "sections": {
        "preamble": "You are an expert coding assistant. You help users with coding tasks.",
        "tools": "<tools>\n- read: Read a file\n- bash: Run a shell command\n- edit: Edit a file\n"
        "- write: Write a file\n</tools>",
        "cwd": "/project",
    },
    "toolsAdded": [
        {
            "name": "read",
            "description": "Read the contents of a file.",
            "parameters": {"type": "object", "properties": {"path": {"type": "string"}}},
        },
        {
            "name": "bash",
            "description": "Execute a bash command.",
            "parameters": {"type": "object", "properties": {"command": {"type": "string"}}},
        },
    ],
}


def _turn(b: SessionBuilder, tools: int = 1, thinking: bool = True) -> str:
    """One user -> assistant(tool calls) -> tool results -> assistant exchange."""
    b.user(_fmt(b.rng, _ASKS))
    calls = [
        b.tool_call("read", {"path": b.rng.choice(_FILES)})
        if i % 2 == 0
        else b.tool_call("bash", {"command": "pytest -q"})
        for i in range(tools)
    ]
    blocks: list[Entry] = []
    if thinking:
        blocks.append(
            {"type": "thinking", "thinking": _fmt(b.rng, _THOUGHTS), "thinkingSignature": "sig"}
        )
    blocks.append({"type": "text", "text": "Let me take a look."})
    b.assistant(blocks + calls, stop="toolUse" if calls else "stop")
    for call in calls:
        b.tool_result(call, _code_output(b.rng, b.rng.randint(3, 12)))
    return b.assistant([{"type": "text", "text": _fmt(b.rng, _ANSWERS)}])


# ---------------------------------------------------------------------------
# Varied v3 session: every entry type, branches, compactions, several roots
# ---------------------------------------------------------------------------


def generate_varied_session(
    rng: random.Random,
    cwd: str = "/home/dev/projects/webshop",
    *,
    start_ms: int = BASE_MS,
    parent_session: str | None = None,
    name: str | None = "Varied session",
) -> tuple[Entry, list[Entry]]:
    """A v3 session exercising every entry type, role and tree shape Pi can write."""
    header = make_header(rng, cwd, start_ms, parent_session=parent_session)
    b = SessionBuilder(rng, start_ms)
    _varied_opening(b)
    first_turn_end = _turn(b, tools=2)
    _varied_messages(b)
    _varied_branches(b, first_turn_end)
    _varied_compactions(b)
    _varied_misc(b, name)
    _varied_roots(b)
    return header, b.entries


def _varied_opening(b: SessionBuilder) -> None:
    b.message(dict(SYSTEM_MESSAGE))
    b.set_model(0)
    b.add("thinking_level_change", thinkingLevel="medium")


def _varied_messages(b: SessionBuilder) -> None:
    image = {"type": "image", "data": png_base64(), "mimeType": "image/png"}
    b.user([{"type": "text", "text": "Here is a screenshot of the broken layout."}, image])
    b.assistant(
        [
            {"type": "thinking", "thinking": "The sidebar overflows its container."},
            {
                "type": "text",
                "text": "The sidebar overflows; add `min-width: 0` to the flex child.",
            },
        ]
    )
    b.message(
        {
            "role": "bashExecution",
            "command": "git status --short",
            "output": " M src/app.py\n?? notes.txt\n",
            "exitCode": 0,
            "cancelled": False,
            "truncated": False,
        }
    )
    b.message(
        {
            "role": "bashExecution",
            "command": "ls -la /tmp",
            "output": "total 0\n",
            "exitCode": 0,
            "cancelled": False,
            "truncated": False,
            "excludeFromContext": True,
        }
    )
    b.message(
        {
            "role": "custom",
            "customType": "todo-reminder",
            "content": "Remember: run the linters before committing.",
            "display": True,
        }
    )
    b.message(
        {
            "role": "system",
            "content": "",
            "sections": {"skills": "<skills>\n- release: cut a release\n</skills>", "cwd": None},
            "toolsRemoved": [{"name": "write"}],
        }
    )
    b.set_model(2)
    b.assistant([], stop="aborted", error="Request was aborted")
    b.user("Try again please.")
    _turn(b, tools=1)


def _varied_branches(b: SessionBuilder, fork_point: str) -> None:
    abandoned = b.leaf or ""
    b.branch_summary(
        fork_point,
        abandoned,
        "Explored fixing the layout with CSS grid; abandoned because Safari 15 lacks subgrid.",
    )
    _turn(b, tools=1)
    second_abandoned = b.leaf or ""
    b.leaf = fork_point  # plain /tree navigation without a summary
    b.user("Actually, let's try a completely different approach.")
    b.assistant([{"type": "text", "text": "Sure. Let's start from the data model instead."}])
    b.branch_summary(fork_point, second_abandoned, "")  # empty summary: no context message
    _turn(b, tools=0, thinking=False)


def _varied_compactions(b: SessionBuilder) -> None:
    _turn(b, tools=1)
    kept = b.find_on_path("user")[-1]
    _turn(b, tools=2)
    b.compaction(
        "## Goal\nFix the layout and the checkout flow.\n\n## Progress\n- Layout fixed\n",
        kept,
        48_211,
        details={"readFiles": ["src/app.py"], "modifiedFiles": ["src/app.py"]},
    )
    _turn(b, tools=1)
    b.compaction("## Goal\nCheckout flow.\n\n## Done\nEverything so far.", None, 61_004)
    _turn(b, tools=1)
    kept = b.find_on_path("assistant")[-1]
    _turn(b, tools=1)
    b.compaction(
        "## Goal\nShip the checkout fix.\n\n## Next\nWrite the changelog.",
        kept,
        73_520,
        system_message=SYSTEM_MESSAGE,
    )
    _turn(b, tools=1)


def _varied_misc(b: SessionBuilder, name: str | None) -> None:
    users = b.find_on_path("user")
    assistants = b.find_on_path("assistant")
    results = b.find_on_path("toolResult")
    b.label(users[-1], "checkpoint")
    b.label(assistants[-1], "good answer")
    b.label(assistants[-1], None)  # cleared
    b.add("session_info", name="first name")
    if name is not None:
        b.add("session_info", name=name)
    b.custom("my-extension", {"count": 42, "enabled": True})
    b.custom_message("deploy-status", "Staging deploy finished in 42s.", True, {"env": "staging"})
    b.custom_message("hidden-note", [{"type": "text", "text": "Hidden context note."}], False)
    b.add("context_edit", targetId=results[-1], replacement=None)
    b.add("context_edit", targetId=users[-1], replacement={"content": "Edited user request."})
    b.add(
        "context_edit",
        targetId=assistants[-1],
        replacement={"content": [{"type": "text", "text": "Edited answer."}]},
    )
    b.add(
        "usage",
        kind="cache_warm",
        provider=b.model[0],
        model=b.model[1],
        usage=make_usage(b.rng),
    )
    b.add("thinking_level_change", thinkingLevel="high")
    _turn(b, tools=1)


def _varied_roots(b: SessionBuilder) -> None:
    b.leaf = None  # resetLeaf(): the next entry is a new root
    b.user("Starting over from scratch: what is in this repository?")
    b.assistant([{"type": "text", "text": "A web shop written in TypeScript with a Go backend."}])
    b.leaf = MISSING_PARENT_ID  # an orphan: its parent is not in the file
    b.user("This message's parent was lost when the file was hand-edited.")
    b.assistant([{"type": "text", "text": "Orphaned branch answer."}])
    b.set_model(1)
    _turn(b, tools=1)


# ---------------------------------------------------------------------------
# Legacy formats
# ---------------------------------------------------------------------------


def generate_v1_session(
    rng: random.Random,
    cwd: str = "/home/dev/projects/legacy",
    *,
    start_ms: int = BASE_MS,
    turns: int = 6,
) -> tuple[Entry, list[Entry]]:
    """A v1 session: no version, no ids; compaction uses ``firstKeptEntryIndex``."""
    provider, model, _ = MODELS[0]
    header = make_header(
        rng,
        cwd,
        start_ms,
        version=None,
        extra={"provider": provider, "modelId": model, "thinkingLevel": "off"},
    )
    b = SessionBuilder(rng, start_ms)
    for i in range(turns):
        _turn(b, tools=rng.randint(0, 2))
        if i == 1:
            b.set_model(2)
        if i == turns // 2:
            b.add("thinking_level_change", thinkingLevel="low")
    entries = [_strip_ids(e) for e in b.entries]
    # Index into all lines (header = 0): keep from the 4th user message on.
    user_lines = [
        i + 1 for i, e in enumerate(entries) if e.get("message", {}).get("role") == "user"
    ]
    keep = user_lines[min(3, len(user_lines) - 1)]
    b2 = SessionBuilder(rng, b.ms)
    b2.tick()
    entries.append(
        {
            "type": "compaction",
            "timestamp": iso_ms(b2.ms),
            "summary": "The user asked for several refactors; all were done.",
            "firstKeptEntryIndex": keep,
            "tokensBefore": 35_000,
        }
    )
    b2.leaf = None
    _turn(b2, tools=1)
    entries.extend(_strip_ids(e) for e in b2.entries)
    return header, entries


def _strip_ids(entry: Entry) -> Entry:
    return {k: v for k, v in entry.items() if k not in ("id", "parentId")}


def generate_v2_session(
    rng: random.Random,
    cwd: str = "/home/dev/projects/legacy",
    *,
    start_ms: int = BASE_MS,
    turns: int = 4,
) -> tuple[Entry, list[Entry]]:
    """A v2 session: tree ids, and a message with the old role ``hookMessage``."""
    header = make_header(rng, cwd, start_ms, version=2)
    b = SessionBuilder(rng, start_ms)
    b.set_model(0)
    for i in range(turns):
        fork = _turn(b, tools=rng.randint(0, 2))
        if i == 1:
            b.message(
                {
                    "role": "hookMessage",
                    "customType": "git-hook",
                    "content": "pre-commit: 2 files reformatted",
                    "display": True,
                }
            )
    b.leaf = fork
    b.user("Let's go back one step and try another way.")
    b.assistant([{"type": "text", "text": "Alright, trying another way."}])
    return header, b.entries


# ---------------------------------------------------------------------------
# Corpus
# ---------------------------------------------------------------------------


def generate_corpus(
    root: Path | str, seed: int = 0, count: int = 24, *, include_malformed: bool = True
) -> list[Path]:
    """A varied conformance corpus under a sessions root; returns every ``.jsonl`` written.

    Contains v1, v2 and v3 sessions over several project folders (including two cwds that map
    to the same folder, a Windows cwd and a non-ASCII one), named sessions, forks whose header
    ``parentSession`` is another file's absolute path, and a few odd files: one that is not a
    session (first line is not a header), one with a blank and a garbage line, one with CRLF
    line endings and one with a partial last line (``include_malformed=False`` leaves those
    four out). Sessions come first in the returned list, the odd files last.
    """
    root = Path(root)
    rng = random.Random(seed)
    paths: list[Path] = []
    ms = BASE_MS
    for i in range(max(count, 6)):
        ms += rng.randint(60_000, 86_400_000)
        cwd = CORPUS_CWDS[i % len(CORPUS_CWDS)]
        kind = i % 6
        parent = str(paths[rng.randrange(len(paths))].resolve()) if kind == 5 and paths else None
        header, entries = _corpus_session(rng, kind, cwd, ms, parent, i)
        paths.append(write_session(session_path(root, header), header, entries))
    if include_malformed:
        paths.extend(_odd_files(root, rng, ms))
    return paths


def _corpus_session(
    rng: random.Random, kind: int, cwd: str, ms: int, parent: str | None, i: int
) -> tuple[Entry, list[Entry]]:
    if kind == 0:
        return generate_v1_session(rng, cwd, start_ms=ms, turns=rng.randint(4, 8))
    if kind == 1:
        return generate_v2_session(rng, cwd, start_ms=ms)
    if kind == 2:
        return generate_varied_session(rng, cwd, start_ms=ms, name=f"Session {i}")
    if kind == 5:
        return generate_varied_session(rng, cwd, start_ms=ms, parent_session=parent, name=None)
    return _simple_session(rng, cwd, ms, turns=rng.randint(1, 6), name=None if kind == 3 else "")


def _simple_session(
    rng: random.Random, cwd: str, ms: int, turns: int, name: str | None = None
) -> tuple[Entry, list[Entry]]:
    header = make_header(rng, cwd, ms)
    b = SessionBuilder(rng, ms)
    b.set_model(rng.randrange(len(MODELS)))
    for _ in range(turns):
        _turn(b, tools=rng.randint(0, 3), thinking=rng.random() < 0.5)
    if name is not None:
        b.add("session_info", name="  temporary\nname  ")
        b.add("session_info", name=name)  # "" clears the name again
    return header, b.entries


def _odd_files(root: Path, rng: random.Random, ms: int) -> list[Path]:
    folder = root / session_dir_name(CORPUS_CWDS[0])
    not_session = folder / "2026-01-01T00-00-00-000Z_not-a-session.jsonl"
    not_session.write_text(dumps({"type": "message", "id": "abcd1234"}) + "\n", encoding="utf-8")
    out = [not_session]
    for n, style in enumerate(("garbage", "crlf", "partial")):
        header, entries = _simple_session(rng, CORPUS_CWDS[1], ms + (n + 1) * 3_600_000, turns=2)
        lines = [dumps(header)] + [dumps(e) for e in entries]
        if style == "garbage":
            lines[2:2] = ["", "{not json at all", "   "]
            text = "\n".join(lines) + "\n"
        elif style == "crlf":
            text = "\r\n".join(lines) + "\r\n"
        else:
            text = "\n".join(lines) + "\n" + lines[-1][: len(lines[-1]) // 2]
        path = session_path(root, header)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))
        out.append(path)
    return out


# ---------------------------------------------------------------------------
# Large sessions and stores (benchmarks)
# ---------------------------------------------------------------------------


@dataclass
class _TextPool:
    """Pre-generated text slices so large files are fast to build."""

    rng: random.Random
    blob: str = ""

    def __post_init__(self) -> None:
        self.blob = _code_output(self.rng, 4_000)

    def take(self, size: int) -> str:
        start = self.rng.randrange(0, len(self.blob) - size - 1)
        return self.blob[start : start + size]


def _large_turn(b: SessionBuilder, pool: _TextPool) -> None:
    rng = b.rng
    b.user(_fmt(rng, _ASKS) + " " + pool.take(rng.randint(20, 200)))
    for _ in range(rng.randint(1, 4)):
        calls = [
            b.tool_call("read", {"path": rng.choice(_FILES)}) for _ in range(rng.randint(1, 2))
        ]
        blocks: list[Entry] = [
            {
                "type": "thinking",
                "thinking": _fmt(rng, _THOUGHTS) + " " + pool.take(rng.randint(50, 400)),
            },
            {"type": "text", "text": "Reading the relevant files."},
        ]
        b.assistant(blocks + calls, stop="toolUse")
        for call in calls:
            b.tool_result(call, pool.take(rng.randint(200, 2_000)), is_error=rng.random() < 0.03)
    b.assistant(
        [{"type": "text", "text": _fmt(rng, _ANSWERS) + "\n\n" + pool.take(rng.randint(50, 600))}]
    )


def _large_events(b: SessionBuilder, count: int) -> None:
    """Occasional model changes, branches and compactions, spread over the session."""
    rng = b.rng
    roll = rng.random()
    if roll < 0.03:
        b.set_model(rng.randrange(len(MODELS)))
    elif roll < 0.035 and count > 50:
        path = b.path_ids()[-40:]
        b.branch_summary(path[len(path) // 2], b.leaf or "", "Tried another approach; reverted.")
    elif roll < 0.038 and count > 50:
        kept = b.find_on_path("user")[-2:] or [None]
        b.compaction(
            "## Goal\nKeep going.\n\n## Progress\n" + "- step done\n" * 20, kept[0], 150_000
        )


class _FastBuilder(SessionBuilder):
    """Builder whose ``path_ids`` is cheap enough for 100k-entry sessions."""

    def path_ids(self, leaf: str | None = None) -> list[str]:
        tail = self.entries[-400:]
        by_id = {e["id"]: e for e in tail}
        out: list[str] = []
        cur = by_id.get(leaf or self.leaf or "")
        while cur is not None:
            out.append(cur["id"])
            cur = by_id.get(cur["parentId"]) if cur["parentId"] else None
        return out[::-1]


def generate_large_session(
    path: Path | str, n_entries: int = 100_000, seed: int = 0, cwd: str = "/home/dev/big-project"
) -> Path:
    """A realistic session of ``n_entries`` entries (about 1 KB each on average)."""
    rng = random.Random(seed)
    header = make_header(rng, cwd, BASE_MS)
    b = _FastBuilder(rng, BASE_MS)
    pool = _TextPool(rng)
    b.message(dict(SYSTEM_MESSAGE))
    b.set_model(0)
    while len(b.entries) < n_entries:
        _large_turn(b, pool)
        _large_events(b, len(b.entries))
    return write_session(path, header, b.entries[:n_entries])


def generate_store(
    root: Path | str, n_sessions: int, entries_per_session: int, seed: int = 0
) -> list[Path]:
    """Many sessions over ~20 project folders under a sessions root (catalog benchmarks)."""
    root = Path(root)
    rng = random.Random(seed)
    cwds = [f"/home/dev/projects/project-{i:02d}" for i in range(20)]
    paths: list[Path] = []
    ms = BASE_MS
    pool = _TextPool(rng)
    for i in range(n_sessions):
        ms += rng.randint(60_000, 7_200_000)
        header = make_header(rng, cwds[rng.randrange(len(cwds))], ms)
        b = _FastBuilder(rng, ms)
        b.set_model(rng.randrange(len(MODELS)))
        while len(b.entries) < entries_per_session:
            _large_turn(b, pool)
            _large_events(b, len(b.entries))
        entries = b.entries[:entries_per_session]
        if rng.random() < 0.3:
            entries.append(_session_info(b, f"Task {i}: {rng.choice(_TOPICS)}"))
        paths.append(write_session(session_path(root, header), header, entries))
    return paths


def _session_info(b: SessionBuilder, name: str) -> Entry:
    b.tick()
    return {
        "type": "session_info",
        "id": b.new_id(),
        "parentId": b.entries[-1]["id"] if b.entries else None,
        "timestamp": iso_ms(b.ms),
        "name": name,
    }


# ---------------------------------------------------------------------------
# Demo store (pitui --demo)
# ---------------------------------------------------------------------------

DEMO_PROJECTS: dict[str, str] = {
    "webshop": "/home/demo/projects/webshop",
    "pitui": "/home/demo/projects/pitui",
    "dotfiles": "/home/demo/projects/dotfiles",
    "blog": "/home/demo/writing/blog",
}

Step = tuple[Any, ...]


@dataclass
class DemoScript:
    """One demo session: project key, name, start offset (minutes after the base) and steps."""

    key: str
    project: str
    name: str | None
    start_min: int
    steps: list[Step]
    fork_of: str | None = None


def _ai(text: str | None, think: str | None = None, tools: Sequence[Step] = ()) -> Step:
    """Assistant step: optional thinking, optional text, then tool calls (name, args, output)."""
    return ("ai", think, text, list(tools))


DEMO_SCRIPTS: tuple[DemoScript, ...] = (
    DemoScript(
        "checkout-bug",
        "webshop",
        "Fix rounding bug in checkout totals",
        0,
        [
            ("model", 0),
            ("thinking", "medium"),
            (
                "user",
                "Customers report that the checkout total is sometimes one cent off. "
                "Can you find out why?",
            ),
            _ai(
                "I'll start by reading the cart total calculation.",
                "Off-by-one-cent errors are almost always floating point. Let me look at how "
                "the cart sums line items.",
                [
                    (
                        "read",
                        {"path": "src/checkout/cart.ts"},
                        "export function cartTotal(items: LineItem[]): number {\n"
                        "  return items.reduce((sum, item) => sum + item.price * item.qty, 0);\n"
                        "}\n",
                    )
                ],
            ),
            ("mark", "diagnosis"),
            _ai(
                "Found it: prices are stored as floating-point euros, so `0.1 * 3` becomes "
                "`0.30000000000000004` and rounding at the end sometimes goes the wrong way. "
                "The robust fix is to keep money in integer cents."
            ),
            ("user", "Ok, switch everything to integer cents."),
            _ai(
                "I'll update the type and the reducer.",
                None,
                [
                    (
                        "edit",
                        {
                            "path": "src/checkout/cart.ts",
                            "oldText": "item.price * item.qty",
                            "newText": "item.priceCents * item.qty",
                        },
                        "Successfully replaced text in src/checkout/cart.ts.",
                    ),
                    (
                        "bash",
                        {"command": "npm test -- cart"},
                        "PASS src/checkout/cart.test.ts\n  cartTotal\n    ✓ sums integer cents "
                        "(3 ms)\n    ✓ handles empty carts (1 ms)\n\nTests: 2 passed, 2 total\n",
                    ),
                ],
            ),
            ("mark", "fixed"),
            _ai(
                "Done. `cartTotal` now works in integer cents and the tests pass. The API still "
                "returns euros, converted once at the boundary."
            ),
            ("label", "fixed", "cents fix"),
            (
                "user",
                "Great. Please also add a regression test with the exact basket "
                "from the bug report.",
            ),
            _ai(
                "Added a test with three items at €0.10 and one at €19.99; "
                "it fails on the old code and passes now.",
                None,
                [
                    (
                        "write",
                        {"path": "src/checkout/regression.test.ts", "content": "…"},
                        "Successfully wrote 412 bytes to src/checkout/regression.test.ts",
                    )
                ],
            ),
            _ai("The regression test is in `src/checkout/regression.test.ts`."),
        ],
    ),
    DemoScript(
        "checkout-fork",
        "webshop",
        "Checkout: try decimal.js instead",
        95,
        [
            ("user", "Let's see what the decimal.js approach would look like instead of cents."),
            _ai(
                "With decimal.js we keep euros but do exact decimal arithmetic. It adds a "
                "32 KB dependency; integer cents need none. I'd still recommend cents.",
                "The user forked to compare approaches; be concise and honest about trade-offs.",
            ),
        ],
        fork_of="checkout-bug",
    ),
    DemoScript(
        "search-perf",
        "webshop",
        "Speed up product search",
        300,
        [
            ("model", 2),
            ("user", "Product search takes two seconds with 50k products. Profile it please."),
            _ai(
                "Let me run the profiler on the search endpoint.",
                "Two seconds for 50k rows smells like a missing index or an N+1 query.",
                [
                    (
                        "bash",
                        {
                            "command": "python -m cProfile -s cumtime scripts/search_bench.py"
                            " | head -12"
                        },
                        "   ncalls  tottime  percall  cumtime  percall filename:lineno(function)\n"
                        "        1    0.002    0.002    2.104    2.104 search.py:14(search)\n"
                        "    50000    1.710    0.000    1.980    0.000 search.py:31(score)\n"
                        "    50000    0.190    0.000    0.190    0.000 {method 'lower' of 'str'}\n",
                    )
                ],
            ),
            ("mark", "profiled"),
            _ai(
                "Nearly all the time is in `score()`, called once per product, which lower-cases "
                "the product name every time. Two options: precompute lower-cased names, or move "
                "search into PostgreSQL full-text search."
            ),
            ("user", "Try the PostgreSQL full-text search."),
            _ai(
                "Adding a generated tsvector column and a GIN index.",
                None,
                [
                    (
                        "write",
                        {"path": "migrations/0043_search_index.sql", "content": "…"},
                        "Successfully wrote 388 bytes to migrations/0043_search_index.sql",
                    ),
                    (
                        "bash",
                        {"command": "make migrate && python scripts/search_bench.py"},
                        "Applying 0043_search_index... OK\nsearch: 50000 products, 100 queries, "
                        "median 41 ms\n",
                    ),
                ],
            ),
            _ai("Median query time dropped from 2.1 s to 41 ms. The migration is reversible."),
            ("goto", "profiled"),
            (
                "branch_summary",
                "Tried PostgreSQL full-text search: 41 ms median, but needs a migration.",
            ),
            ("user", "Let's compare with the simpler fix: precompute the lower-cased names."),
            _ai(
                "Caching `name.lower()` on load.",
                None,
                [
                    (
                        "edit",
                        {
                            "path": "search.py",
                            "oldText": "name.lower()",
                            "newText": "self._lower[i]",
                        },
                        "Successfully replaced text in search.py.",
                    ),
                    (
                        "bash",
                        {"command": "python scripts/search_bench.py"},
                        "search: 50000 products, 100 queries, median 380 ms\n",
                    ),
                ],
            ),
            _ai(
                "The simple fix gets us to 380 ms. That's 5x better but the database approach is "
                "10x faster again, so I'd keep the full-text search branch."
            ),
            ("label", "profiled", "profile"),
        ],
    ),
    DemoScript(
        "tree-widget",
        "pitui",
        "Tree view: indentation only at branch points",
        1440,
        [
            ("model", 0),
            ("thinking", "high"),
            (
                "user",
                "The tree view indents every child, so a 500-message session is unreadable. "
                "Pi only indents at branch points. Can you do the same?",
            ),
            _ai(
                "Let me read the current tree rendering code.",
                "Single-child chains should be rendered flat; only nodes with two or more children "
                "start a new indentation level. That is an iterative walk with an explicit stack.",
                [
                    (
                        "read",
                        {"path": "pitui/ui/tree.py"},
                        "def render(node, depth=0):\n    yield depth, node\n"
                        "    for child in node.children:\n"
                        "        yield from render(child, depth + 1)\n",
                    )
                ],
            ),
            _ai(
                "The recursion increases the depth for every child and would also hit Python's "
                "recursion limit on long sessions. I'll rewrite it iteratively and only indent "
                "when a node has several children.",
                None,
                [
                    (
                        "edit",
                        {
                            "path": "pitui/ui/tree.py",
                            "oldText": "def render(",
                            "newText": "def flatten(",
                        },
                        "Successfully replaced text in pitui/ui/tree.py.",
                    ),
                    (
                        "bash",
                        {"command": ".venv/bin/pytest tests/ui/test_tree.py -q"},
                        "........                                                  [100%]\n"
                        "8 passed in 0.41s\n",
                    ),
                ],
            ),
            ("mark", "rewritten"),
            _ai("All tree tests pass, including a new one with a 10,000-entry chain."),
            ("user_img", "Here's how it looks now. The active path marker is missing on the root."),
            _ai(
                "Right, the marker was only applied to children. Fixed by marking the root before "
                "walking the stack.",
                "The screenshot shows the bullet missing on the first row.",
            ),
            ("label", "rewritten", "iterative tree"),
        ],
    ),
    DemoScript(
        "reader-compaction",
        "pitui",
        "Session reader: handle compactions",
        2000,
        [
            ("model", 1),
            ("user", "Implement context building for compactions, following Pi's rules."),
            _ai(
                "I'll read Pi's documentation on compaction first.",
                None,
                [
                    (
                        "read",
                        {"path": "docs/compaction.md"},
                        "When the context grows too large, pi summarizes older messages...\n"
                        "firstKeptEntryId identifies the first entry retained from before the "
                        "compaction entry.\n",
                    )
                ],
            ),
            ("mark", "kept"),
            _ai(
                "The context is: the latest compaction on the path, then the kept entries from "
                "`firstKeptEntryId` up to it (minus system messages), then everything after it."
            ),
            ("user", "What happens with a retain-none compaction?"),
            _ai(
                "It stores its own id in `firstKeptEntryId`, so no earlier entry matches and only "
                "the summary plus later entries remain."
            ),
            (
                "compact",
                "kept",
                "## Goal\nImplement compaction-aware context building.\n\n"
                "## Progress\n- Read docs/compaction.md\n- Rules understood",
                84_312,
            ),
            ("user", "Good, now write the code and tests."),
            _ai(
                "Implemented `build_context()` with tests for normal, retain-none and nested "
                "compactions.",
                None,
                [
                    (
                        "bash",
                        {"command": ".venv/bin/pytest tests/core/test_context.py -q"},
                        "..............                                            [100%]\n"
                        "14 passed in 0.22s\n",
                    )
                ],
            ),
            _ai("All 14 context tests pass."),
            (
                "compact",
                None,
                "## Goal\nCompaction-aware context.\n\n## Done\nCode and tests.",
                97_004,
            ),
            ("user", "Summarise what we did for the changelog."),
            _ai("- Context building now honours compactions, including retain-none ones."),
        ],
    ),
    DemoScript(
        "picker-search",
        "pitui",
        None,
        2600,
        [
            ("model", 2),
            ("user", "How does the session picker search work in Pi? I want the same behaviour."),
            _ai(
                "Tokens are AND-ed and case-insensitive; a quoted phrase matches literally; "
                "`re:` starts a regular expression. Name matches rank above id, message and cwd "
                "matches, which rank above fuzzy matches.",
                "Answer from the reference; no tools needed.",
            ),
            ("user", "And the threaded sort?"),
            _ai(
                "Forked sessions are nested under the session whose file path is their "
                "`parentSession`."
            ),
        ],
    ),
    DemoScript(
        "ui-theme",
        "pitui",
        "Dark theme tweaks",
        3100,
        [
            ("model", 0),
            ("user", "The thinking blocks are too bright in the dark theme. Dim them a bit."),
            _ai(
                "Changing the thinking block style to use `$text-muted`.",
                None,
                [
                    (
                        "edit",
                        {
                            "path": "pitui.tcss",
                            "oldText": "color: $text;",
                            "newText": "color: $text-muted;",
                        },
                        "Successfully replaced text in pitui.tcss.",
                    )
                ],
            ),
            _ai("Done; thinking blocks now use the muted text colour."),
            (
                "custom_message",
                "screenshot-check",
                "Snapshot tests updated: 3 changed, 41 unchanged.",
            ),
            ("context_edit_last_user", "Dim the thinking blocks in the dark theme."),
            ("name", "Dark theme: dim thinking blocks"),
        ],
    ),
    DemoScript(
        "zsh-startup",
        "dotfiles",
        "Speed up zsh startup",
        4300,
        [
            ("model", 0),
            ("thinking", "low"),
            ("user", "My shell takes almost a second to start. Can you find out why?"),
            _ai(
                "Let me time the startup with zprof.",
                None,
                [
                    (
                        "bash",
                        {
                            "command": "zsh -i -c 'zmodload zsh/zprof; source ~/.zshrc; zprof'"
                            " | head -6"
                        },
                        "num  calls            time                   self            name\n"
                        "-----------------------------------------------------------------------\n"
                        " 1)    1   612.41   612.41   71.02%   612.41   612.41   71.02%  nvm_auto\n"
                        " 2)    1   134.90   134.90   15.64%   134.90   134.90   15.64% compinit\n",
                    )
                ],
            ),
            _ai(
                "`nvm` accounts for 71% of the startup time. Loading it lazily, on the first call "
                "to `node`, `npm` or `nvm`, saves about 600 ms."
            ),
            ("bash", "exec zsh -l && echo ready", "ready\n", 0),
            ("user", "Do it, and cache compinit too."),
            _ai(
                "Updated `.zshrc`: lazy nvm loading and `compinit -C` with a daily dump refresh.",
                None,
                [
                    (
                        "edit",
                        {
                            "path": "zsh/.zshrc",
                            "oldText": "source $NVM_DIR/nvm.sh",
                            "newText": "lazy_nvm",
                        },
                        "Successfully replaced text in zsh/.zshrc.",
                    ),
                    (
                        "bash",
                        {"command": "for i in 1 2 3; do /usr/bin/time zsh -i -c exit; done"},
                        "0.09 real 0.05 user 0.03 sys\n0.08 real 0.05 user 0.02 sys\n"
                        "0.08 real 0.05 user 0.02 sys\n",
                    ),
                ],
            ),
            _ai("Startup went from 0.86 s to 0.08 s."),
        ],
    ),
    DemoScript(
        "git-aliases",
        "dotfiles",
        None,
        5000,
        [
            ("model", 3),
            ("user", "Suggest a few git aliases for a cleaner log."),
            _ai(
                "Here are three I use:\n\n```ini\n[alias]\n"
                "  lg = log --graph --oneline --decorate\n"
                "  last = log -1 HEAD --stat\n  unstage = reset HEAD --\n```"
            ),
            ("user", "Add them to my gitconfig."),
            _ai(
                "Added.",
                None,
                [
                    (
                        "bash",
                        {
                            "command": "git config --global alias.lg"
                            " 'log --graph --oneline --decorate'"
                        },
                        "",
                    )
                ],
            ),
            _ai("`git lg` now shows the graph log."),
            ("name", "temp"),
            ("name", ""),
        ],
    ),
    DemoScript(
        "nvim-lsp",
        "dotfiles",
        "Neovim: set up pyright",
        5600,
        [
            ("model", 0),
            ("user", "Set up pyright in my Neovim config; I use lazy.nvim."),
            _ai(
                "I'll add an `nvim-lspconfig` spec with pyright.",
                "Keep it minimal: one plugin spec and the on_attach keymaps.",
                [
                    (
                        "write",
                        {"path": "nvim/lua/plugins/lsp.lua", "content": "…"},
                        "Successfully wrote 640 bytes to nvim/lua/plugins/lsp.lua",
                    )
                ],
            ),
            ("mark", "written"),
            _ai(
                "Restart Neovim and run `:LspInfo` in a Python file to check that pyright attaches."
            ),
            ("user", "It says pyright is not executable."),
            _ai(
                "Pyright isn't installed. Installing it with npm.",
                None,
                [
                    (
                        "bash",
                        {"command": "npm install -g pyright"},
                        "npm ERR! code EACCES\nnpm ERR! syscall mkdir\n"
                        "npm ERR! path /usr/lib/node_modules/pyright\n",
                        True,
                    )
                ],
            ),
            _ai(
                "The global npm prefix isn't writable. Use `mason.nvim` instead, which installs "
                "language servers into your Neovim data directory."
            ),
            ("label", "written", "lsp config"),
            ("label", "written", None),
            ("label", "written", "lsp spec"),
        ],
    ),
    DemoScript(
        "blog-post",
        "blog",
        "Draft: why append-only session logs",
        7000,
        [
            ("model", 1),
            ("thinking", "high"),
            (
                "user",
                "Help me outline a blog post on why an agent's session log should be append-only.",
            ),
            _ai(
                "Outline:\n\n1. Crash safety: a partial last line is the worst case.\n"
                "2. Branching without rewriting: new entries point at older parents.\n"
                "3. Cheap tailing: readers only parse what is new.\n"
                "4. Edits as data: labels and context edits are entries too.",
                "The user wants an outline, not a full draft. Four sections feel right.",
            ),
            ("mark", "outline"),
            ("user", "Expand section 2 into two paragraphs."),
            _ai(
                "Branching is just a new entry whose parent is an older entry. Nothing already "
                "written changes, so a reader that saw the file a second ago stays valid.\n\n"
                "The cost is that the file holds every abandoned attempt, so tools must compute "
                "the active path from the leaf, not read the file top to bottom."
            ),
            ("goto", "outline"),
            (
                "branch_summary",
                "Expanded section 2 on branching; the user wants a different angle.",
            ),
            ("user", "Actually, start with the crash-safety argument and make it concrete."),
            _ai(
                "Picture the agent killed mid-write: an append-only log loses at most the line "
                "being written, and a reader can ignore a last line without a newline."
            ),
        ],
    ),
    DemoScript(
        "blog-typos",
        "blog",
        None,
        7400,
        [
            ("model", 2),
            ("user", "Fix the typos in posts/2025-12-append-only.md."),
            _ai(
                "Fixed four typos.",
                None,
                [
                    (
                        "bash",
                        {"command": "codespell -w posts/2025-12-append-only.md"},
                        "FIXED: posts/2025-12-append-only.md:12: recieve ==> receive\n"
                        "FIXED: posts/2025-12-append-only.md:30: seperate ==> separate\n",
                    )
                ],
            ),
            _ai("`codespell` fixed them in place; please review the diff."),
        ],
    ),
)


@dataclass
class _DemoState:
    builder: SessionBuilder
    marks: dict[str, str] = field(default_factory=dict)


def _demo_ai(st: _DemoState, step: Step) -> None:
    _, think, text, tools = step
    b = st.builder
    blocks: list[Entry] = []
    if think:
        blocks.append({"type": "thinking", "thinking": think, "thinkingSignature": "demo"})
    if text:
        blocks.append({"type": "text", "text": text})
    calls = [b.tool_call(t[0], t[1]) for t in tools]
    b.assistant(blocks + calls, stop="toolUse" if calls else "stop")
    for call, tool in zip(calls, tools, strict=True):
        b.tool_result(call, tool[2], is_error=len(tool) > 3 and bool(tool[3]))


def _demo_step(st: _DemoState, step: Step) -> None:
    b = st.builder
    kind = step[0]
    if kind == "ai":
        _demo_ai(st, step)
    elif kind == "user":
        b.user(step[1])
    elif kind == "user_img":
        img = {"type": "image", "data": png_base64(8, 6, (30, 120, 200)), "mimeType": "image/png"}
        b.user([{"type": "text", "text": step[1]}, img])
    elif kind == "model":
        b.set_model(step[1])
    elif kind == "thinking":
        b.add("thinking_level_change", thinkingLevel=step[1])
    elif kind == "mark":
        st.marks[step[1]] = b.leaf or ""
    else:
        _demo_tree_step(st, step)


def _demo_tree_step(st: _DemoState, step: Step) -> None:
    b = st.builder
    kind = step[0]
    if kind == "goto":
        st.marks["_abandoned"] = b.leaf or ""
        b.leaf = st.marks[step[1]]
    elif kind == "branch_summary":
        b.branch_summary(b.leaf, st.marks["_abandoned"], step[1])
    elif kind == "label":
        b.label(st.marks[step[1]], step[2])
    elif kind == "name":
        b.add("session_info", name=step[1])
    elif kind == "compact":
        kept = st.marks[step[1]] if step[1] else None
        b.compaction(step[2], kept, step[3], system_message=SYSTEM_MESSAGE)
    elif kind == "bash":
        msg = {"role": "bashExecution", "command": step[1], "output": step[2], "exitCode": step[3]}
        b.message({**msg, "cancelled": False, "truncated": False})
    elif kind == "custom_message":
        b.custom_message(step[1], step[2], True)
    elif kind == "context_edit_last_user":
        target = b.find_on_path("user")[-1]
        b.add("context_edit", targetId=target, replacement={"content": step[1]})
    else:
        raise ValueError(f"unknown demo step {kind!r}")


def _demo_session(
    script: DemoScript, rng: random.Random, parent: tuple[Path, list[Entry]] | None, base_ms: int
) -> tuple[Entry, list[Entry]]:
    start = base_ms + script.start_min * 60_000
    cwd = DEMO_PROJECTS[script.project]
    header = make_header(rng, cwd, start, parent_session=str(parent[0]) if parent else None)
    b = SessionBuilder(rng, start)
    if parent:  # a fork copies the parent's entries verbatim
        b.entries = [dict(e) for e in parent[1]]
        b.ids = {e["id"] for e in b.entries}
        b.leaf = b.entries[-1]["id"] if b.entries else None
        b.ms = max(b.ms, start)
    st = _DemoState(b)
    for step in script.steps:
        _demo_step(st, step)
    if script.name:
        b.add("session_info", name=script.name)
    return header, b.entries


def write_demo_store(root: Path | str, base_ms: int = DEMO_BASE_MS) -> Path:
    """Write the demo data (``pitui --demo``) into agent dir ``root``; return its sessions root.

    Sessions live in ``<root>/sessions/--home-demo-...--/`` and span about five days from
    ``base_ms``. The output is deterministic byte for byte for a given ``root`` and
    ``base_ms`` (a fork's ``parentSession`` is an absolute path under ``root``).
    """
    sessions = Path(root).resolve() / "sessions"
    rng = random.Random(20251201)
    written: dict[str, tuple[Path, list[Entry]]] = {}
    for script in DEMO_SCRIPTS:
        parent = written.get(script.fork_of) if script.fork_of else None
        header, entries = _demo_session(script, rng, parent, base_ms)
        path = write_session(session_path(sessions, header), header, entries)
        written[script.key] = (path, entries)
    return sessions
