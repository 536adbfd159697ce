"""`pitui mcp`'s stdio transport and logging: every line read gets an answer, and stderr
never stalls the server.

The SDK's own transport drops a line it cannot read without a word (logged at debug), so a
client that sent one waited for ever: an unparsable line got no -32700 error, and a request
holding a lone surrogate (`"\\ud800"`, which JSON allows and Unicode does not) no answer at
all. Here each line is checked first: one that is not JSON is answered with -32700 (id
null), one that is JSON but not a message the SDK takes with -32600, under its own id when
it has one; a line over `MAX_LINE` bytes is not read whole (-32600 as well). When stdin
ends, the requests read are answered before the server stops: the SDK cancelled those under
way, so a client that wrote its requests and closed the pipe (`... | pitui mcp`) went without
the last answers.

The SDK logs with Rich at INFO (a box per failing call): a client that never reads the
server's stderr filled the pipe after ~193 failing calls, and every later write blocked
the server. Here only warnings are logged, one line each, by a thread of their own through
a bounded queue: when stderr is not read, records are dropped, never waited for.
"""

from __future__ import annotations

import contextlib
import json
import logging
import logging.handlers
import os
import queue
import re
import sys
import threading
from contextlib import asynccontextmanager
from typing import Any, BinaryIO

import anyio
import anyio.to_thread
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage
from pydantic import ValidationError

MAX_LINE = 4 << 20  # bytes of one JSON-RPC message
LOG_QUEUE = 100  # records waiting for stderr; more are dropped
ANSWERS_POLL = 0.02  # seconds between looks at the requests still unanswered at stdin's end
CANCELLED = "notifications/cancelled"
_ID = re.compile(rb'"id"\s*:\s*("(?:[^"\\]|\\.){0,200}"|-?\d{1,18})\s*[,}]')


def quiet_logging() -> None:
    """Warnings and errors only, one line each, written to stderr by a thread of their own;
    never blocks the server. (Before the SDK configures Rich: `basicConfig` then does
    nothing.)"""
    records: queue.Queue[logging.LogRecord] = queue.Queue(LOG_QUEUE)
    handler = _DroppingQueueHandler(records)
    handler.setLevel(logging.WARNING)
    root = logging.getLogger()
    for old in root.handlers[:]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(logging.WARNING)
    logging.captureWarnings(True)
    writer = _StderrWriter()
    writer.setFormatter(logging.Formatter("pitui mcp: %(levelname)s %(name)s: %(message)s"))
    threading.Thread(target=_write_records, args=(records, writer), daemon=True).start()


class _DroppingQueueHandler(logging.handlers.QueueHandler):
    def enqueue(self, record: logging.LogRecord) -> None:
        with contextlib.suppress(queue.Full):  # stderr not read: the record dropped, not waited
            self.queue.put_nowait(record)


class _StderrWriter(logging.Handler):
    """Unbuffered writes to fd 2 (nothing for logging's exit-time flush to wait on)."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            line = self.format(record).replace("\n", " | ")[:2_000] + "\n"
            os.write(2, line.encode("utf-8", "replace"))
        except Exception:  # a log line never ends the server
            pass


def _write_records(records: queue.Queue[logging.LogRecord], writer: logging.Handler) -> None:
    while True:
        writer.handle(records.get())


def serve(server: Server[Any]) -> None:
    """Run the server over this transport until stdin ends."""

    async def main() -> None:
        async with answered_stdio() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    anyio.run(main)


@asynccontextmanager
async def answered_stdio(source: BinaryIO | None = None) -> Any:
    """The SDK's stdio transport (stdout claimed for the protocol, prints diverted to
    stderr) reading lines from `source` (default: stdin) through `_Lines`."""
    lines = _Lines(source if source is not None else sys.stdin.buffer)
    async with stdio_server(stdin=lines) as (read_stream, write_stream):  # type: ignore[arg-type]
        lines.answers = _Answers(write_stream, lines.unanswered)
        lines.ready.set()
        yield read_stream, lines.answers


class _Answers:
    """The SDK's write stream, noting which requests it answered."""

    def __init__(self, stream: Any, unanswered: set[Any]) -> None:
        self._stream, self._unanswered = stream, unanswered

    async def send(self, item: SessionMessage) -> None:
        await self._stream.send(item)
        if isinstance(item.message, (types.JSONRPCResponse, types.JSONRPCError)):
            self._unanswered.discard(item.message.id)

    async def __aenter__(self) -> _Answers:
        await self._stream.__aenter__()
        return self

    async def __aexit__(self, *exc: object) -> Any:
        return await self._stream.__aexit__(*exc)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


class _Lines:
    """The lines the SDK may read (as text); any other line answered with an error."""

    def __init__(self, source: BinaryIO) -> None:
        self.source = source
        self.ready = anyio.Event()
        self.answers: Any = None
        self.unanswered: set[Any] = set()  # the ids of the requests read and not answered

    def __aiter__(self) -> _Lines:
        return self

    async def __anext__(self) -> str:
        while True:
            raw = await anyio.to_thread.run_sync(self._read, abandon_on_cancel=True)
            if raw is None:
                while self.unanswered:  # the end of stdin would cancel them
                    await anyio.sleep(ANSWERS_POLL)
                raise StopAsyncIteration
            if not raw.strip():
                continue
            line, message = checked_line(raw)
            if line is not None:
                self._note(message)
                return line
            await self.ready.wait()  # the message is the error that answers the line
            await self.answers.send(SessionMessage(message))

    def _note(self, message: types.JSONRPCMessage) -> None:
        """A request waits for its answer, unless the client cancels it (then none comes)."""
        if isinstance(message, types.JSONRPCRequest):
            self.unanswered.add(message.id)
        elif isinstance(message, types.JSONRPCNotification) and message.method == CANCELLED:
            self.unanswered.discard((message.params or {}).get("requestId"))

    def _read(self) -> bytes | None:
        """The next line (b"" and None at the end); one over `MAX_LINE` bytes is read past
        and given as its first bytes with no newline (`checked_line` refuses it)."""
        line = self.source.readline(MAX_LINE + 1)
        if not line:
            return None
        if len(line) <= MAX_LINE or line.endswith(b"\n"):
            return line
        while True:  # read past the rest of it, a bounded piece at a time
            rest = self.source.readline(MAX_LINE)
            if not rest or rest.endswith(b"\n"):
                return line[:MAX_LINE]


def checked_line(
    raw: bytes,
) -> tuple[str, types.JSONRPCMessage] | tuple[None, types.JSONRPCError]:
    """The line as the SDK reads it and its message, or no line and the error that answers
    it."""
    if len(raw) >= MAX_LINE and not raw.endswith(b"\n"):
        return None, _error(
            _id_in(raw), types.INVALID_REQUEST, f"Invalid Request: over {MAX_LINE >> 20} MiB"
        )
    text = raw.decode("utf-8", errors="replace")
    try:
        return text, types.jsonrpc_message_adapter.validate_json(text, by_name=False)
    except ValidationError:
        pass
    try:
        data = json.loads(text)  # Python's parser takes lone surrogates; the SDK's does not
    except (ValueError, RecursionError):
        return None, _error(_id_in(raw), types.PARSE_ERROR, "Parse error: the line is not JSON")
    ident = data.get("id") if isinstance(data, dict) else None
    if isinstance(ident, bool) or not isinstance(ident, (str, int)):
        ident = None
    try:
        surrogate = _has_lone_surrogate(data)
    except RecursionError:
        surrogate = False
    if surrogate:
        why = "a string holds a lone surrogate (such as \\ud800), which is not Unicode"
    else:
        why = "not a JSON-RPC 2.0 request, notification or response"
    return None, _error(ident, types.INVALID_REQUEST, f"Invalid Request: {why}")


def _id_in(raw: bytes) -> str | int | None:
    """The id a line that cannot be read whole seems to have (so the client stops waiting)."""
    found = _ID.search(raw[:65536])
    if found is None:
        return None
    try:
        value = json.loads(found.group(1))
    except ValueError:
        return None
    return value if isinstance(value, (str, int)) else None


def _has_lone_surrogate(value: Any) -> bool:
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return True
        return False
    if isinstance(value, dict):
        return any(_has_lone_surrogate(k) or _has_lone_surrogate(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_lone_surrogate(item) for item in value)
    return False


def _error(ident: str | int | None, code: int, message: str) -> types.JSONRPCError:
    return types.JSONRPCError(
        jsonrpc="2.0", id=ident, error=types.ErrorData(code=code, message=message)
    )
