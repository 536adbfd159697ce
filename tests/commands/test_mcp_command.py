"""`pitui mcp`: the five read-only tools, over the SDK's own client (stdio and in-process)
and as the real Pi sees them (`pi mcp add`, `pi mcp list`)."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import orjson
import pytest

from pitui.cli import main
from pitui.core.catalog.scan.discovery import project_dir

TOOLS = ["search_sessions", "search_entries", "read_session", "get_context", "file_history"]
KEY = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"


def _entry(n: int, parent: str | None, text: str) -> dict[str, Any]:
    role = "user" if n % 2 == 0 else "assistant"
    content: Any = text if role == "user" else [{"type": "text", "text": text}]
    return {"type": "message", "id": f"e{n:03d}", "parentId": parent,
            "timestamp": f"2026-05-01T00:{n // 60:02d}:{n % 60:02d}.000Z",
            "message": {"role": role, "content": content}}  # fmt: skip


def _lines(entries: list[dict[str, Any]]) -> bytes:
    return b"".join(orjson.dumps(e) + b"\n" for e in entries)


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A session of 30 entries in the cwd's folder, a secret in its first message; returns
    its file. Another session's id shares its first 7 characters."""
    agent = tmp_path / "agent"
    cwd = tmp_path / "proj"
    cwd.mkdir()
    folder = project_dir(agent / "sessions", str(cwd))
    folder.mkdir(parents=True)
    header = {
        "type": "session",
        "version": 3,
        "id": "0190aaaa-mcp-test",
        "timestamp": "2026-05-01T00:00:00.000Z",
        "cwd": str(cwd),
    }
    entries, parent = [], None
    for n in range(30):
        text = f"push with {KEY} now" if n == 0 else f"step {n} of the plan"
        entries.append(_entry(n, parent, text))
        parent = entries[-1]["id"]
    path = folder / "s.jsonl"
    path.write_bytes(orjson.dumps(header) + b"\n" + _lines(entries))
    other = folder / "t.jsonl"
    other.write_bytes(
        orjson.dumps({**header, "id": "0190aaab-other"})
        + b"\n"
        + _lines([_entry(0, None, "hello")])
    )
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(agent))
    monkeypatch.setenv("PITUI_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("PI_CODING_AGENT_SESSION_DIR", raising=False)
    monkeypatch.chdir(cwd)
    return path


async def _call(tool: str, **arguments: Any) -> tuple[bool, str]:
    from mcp import Client

    from pitui.commands.mcp import build_server

    async with Client(build_server()) as client:
        result = await client.call_tool(tool, arguments)
    text = result.content[0].text
    if not result.is_error:  # typed: the text is the structured content, compact
        assert result.structured_content == json.loads(text)
        assert text == json.dumps(result.structured_content, separators=(",", ":"),
                                  ensure_ascii=False)  # fmt: skip
    return bool(result.is_error), text


async def _page(tool: str, **arguments: Any) -> dict[str, Any]:
    error, text = await _call(tool, **arguments)
    assert not error, text
    return json.loads(text)  # type: ignore[no-any-return]


async def test_stdio_server_with_the_sdk_client(store: Path, tmp_path: Path) -> None:
    from mcp import Client, StdioServerParameters

    env = {
        k: os.environ[k]
        for k in (
            "PI_CODING_AGENT_DIR",
            "PITUI_CACHE_DIR",
            "XDG_DATA_HOME",
            "XDG_CONFIG_HOME",
            "XDG_CACHE_HOME",
        )
    }
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "pitui", "mcp"], env=env, cwd=os.getcwd()
    )
    async with Client(params) as client:
        capabilities = client.server_capabilities
        assert capabilities is not None and capabilities.tools is not None
        assert capabilities.resources is None and capabilities.prompts is None  # it has none
        listed = (await client.list_tools()).tools
        assert [tool.name for tool in listed] == TOOLS
        for tool in listed:
            assert tool.description and len(tool.description) > 40
            properties = tool.input_schema["properties"]
            assert all(p.get("description") for p in properties.values()), tool.name
            assert tool.annotations is not None and tool.annotations.read_only_hint
            output = tool.output_schema  # typed results, not {"result": "<JSON text>"}
            assert output is not None and "result" not in output["properties"], tool.name
            limit = properties["limit"]
            assert limit["minimum"] == 1 and limit["maximum"] in (100, 200), tool.name
        found = await client.call_tool("search_entries", {"query": "push with"})
    assert found.structured_content is not None
    data = found.structured_content
    (hit,) = data["entries"]
    assert (hit["id"], hit["line"], "nextOffset" in data) == ("e000", 2, False)
    assert KEY not in hit["snippet"] and "[REDACTED:github]" in hit["snippet"]
    assert json.loads(found.content[0].text) == data


async def test_read_session_pages_through_the_branch(store: Path) -> None:
    seen: list[str] = []
    offset: int | None = 0
    while offset is not None:
        page = await _page("read_session", session="0190aaaa", offset=offset, limit=7)
        assert page["leaf"] == "e029" and page["total"] == 30
        seen += [entry["id"] for entry in page["entries"]]
        for entry in page["entries"]:  # the id and the role said once each
            assert entry["id"] not in entry["text"] and "role" not in entry
            assert entry["text"].startswith(("### User", "### Assistant")), entry
        offset = page.get("nextOffset")
    assert seen == [f"e{n:03d}" for n in range(30)]


async def test_secrets_redacted_unless_asked(store: Path) -> None:
    for tool, arguments in [
        ("read_session", {"session": str(store), "limit": 5}),
        ("get_context", {"session": "0190aaaa-mcp-test", "limit": 5}),
        ("search_entries", {"query": "push"}),
        ("search_sessions", {"query": "push"}),
    ]:
        error, text = await _call(tool, **arguments)
        assert not error and KEY not in text and "[REDACTED:github]" in text, tool
        error, text = await _call(tool, **arguments, redact=False)
        assert not error and KEY in text, tool


async def test_a_session_growing_between_two_pages(store: Path) -> None:
    first = await _page("read_session", session="0190aaaa", limit=10)
    assert (first["leaf"], first["nextOffset"]) == ("e029", 10)
    with store.open("ab") as out:  # Pi goes on, then branches from entry 5
        out.write(_lines([_entry(30, "e029", "later step"), _entry(31, "e005", "another way")]))
    same = await _page("read_session", session="0190aaaa", leaf="e029", offset=10, limit=30)
    assert [e["id"] for e in same["entries"]] == [f"e{n:03d}" for n in range(10, 30)]
    now = await _page("read_session", session="0190aaaa", offset=0, limit=30)
    assert now["leaf"] == "e031" and "another way" in now["entries"][-1]["text"]
    assert "e006" not in [e["id"] for e in now["entries"]]


async def test_get_context_pages_are_pitui_context_json(
    store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["context", "--json", str(store)]) == 0
    expected = json.loads(capsys.readouterr().out)
    messages: list[Any] = []
    offset: int | None = 0
    while offset is not None:
        page = await _page("get_context", session=str(store), offset=offset, limit=8,
                           redact=False)  # fmt: skip
        assert page["leaf"] == "e029" and "truncated" not in page
        assert page.get("model") == (expected.get("model") or None)  # none: left out
        assert page["thinkingLevel"] == expected["thinkingLevel"]
        messages += page["messages"]
        offset = page.get("nextOffset")
    assert messages == expected["messages"]


async def test_bad_references_are_one_line_tool_errors(store: Path, tmp_path: Path) -> None:
    error, text = await _call("read_session", session="0190aaa")
    assert error and "2 sessions have ids starting" in text and "\n" not in text
    # a path outside pitui's stores: the same answer whether a file is there or not
    elsewhere = tmp_path / "elsewhere.jsonl"
    elsewhere.write_bytes(store.read_bytes())  # a session, but none pitui lists
    for path in (elsewhere, tmp_path / "missing.jsonl", Path("/etc/passwd")):
        error, text = await _call("read_session", session=str(path))
        assert error and text.endswith(f"no session of pitui's stores at {str(path)!r}")
    error, text = await _call("get_context", session="nobody")
    assert error and "no session with id" in text
    error, text = await _call("read_session", session="0190aaaa", leaf="nope")
    assert error and "no entry with id 'nope'" in text
    copy = store.with_name("copy-" + store.name)  # the same id twice, in the store
    copy.write_bytes(store.read_bytes())
    for reference in ("0190aaaa-mcp-test", "0190aaaa-mcp"):  # a longer prefix cannot help
        error, text = await _call("read_session", session=reference)
        assert error and "2 sessions have the id '0190aaaa-mcp-test'" in text
        assert str(store) in text and str(copy) in text  # named: each can be read by its path


@pytest.mark.oracle
def test_pi_mcp_list_names_the_tools(store: Path, tmp_path: Path) -> None:
    """The real Pi adds the server and connects to it (no LLM credentials needed)."""
    from oracle import oracle_available, oracle_dir, oracle_unavailable_reason

    node = oracle_available()
    if node is None:
        pytest.skip(f"Node/Pi oracle cannot be installed: {oracle_unavailable_reason()}")
    cli = oracle_dir() / "node_modules" / "@earendil-works" / "pi-coding-agent" / "dist" / "cli.js"
    home = tmp_path / "home"
    home.mkdir()
    # outside the virtualenv (its bin not on PATH): the line `pitui mcp --help` prints
    env = {**os.environ, "HOME": str(home), "PATH": f"{Path(node).parent}:/usr/bin:/bin"}
    script = Path(sys.executable).with_name("pitui")
    helped = subprocess.run([str(script), "mcp", "--help"], env=env, capture_output=True,
                            text=True, timeout=60, check=True)  # fmt: skip
    (line,) = [x.strip() for x in helped.stdout.splitlines() if x.strip().startswith("pi mcp")]
    add = [str(node), str(cli), *shlex.split(line)[1:]]
    subprocess.run(add, env=env, check=True, capture_output=True, timeout=60)
    config = json.loads((Path(os.environ["PI_CODING_AGENT_DIR"]) / "mcp.json").read_text())
    assert config["mcpServers"]["pitui"]["command"] == str(script)
    assert config["mcpServers"]["pitui"]["args"] == ["mcp"]
    listed = subprocess.run(
        [str(node), str(cli), "mcp", "list"], env=env, capture_output=True, text=True, timeout=60
    )
    assert listed.returncode == 0, listed.stdout + listed.stderr
    assert "pitui: connected, 5 tools" in listed.stdout
    assert f"tools: {', '.join(TOOLS)}" in listed.stdout


def test_other_commands_do_not_import_the_sdk(store: Path) -> None:
    code = (
        "import sys\n"
        "from pitui.cli import main\n"
        "main(['grep', '--all', 'plan']); main(['list', '--json'])\n"
        "print('mcp' in sys.modules, file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stderr.strip().splitlines()[-1] == "False"


def _session(folder: Path, name: str, cwd: str, entries: list[dict[str, Any]], when: str) -> Path:
    header = {"type": "session", "version": 3, "id": name, "timestamp": when, "cwd": cwd}
    path = folder / f"{name}.jsonl"
    entries = [{**e, "timestamp": when} for e in entries]  # modified then
    path.write_bytes(orjson.dumps(header) + b"\n" + _lines(entries))
    return path


async def test_a_query_ranks_by_relevance_and_an_empty_folder_says_scope_all(
    store: Path,
) -> None:
    """The session named by the query comes first among 30 newer ones that only mention its
    words (newest first, it was on the second page); no match here names scope "all"."""
    for n in range(30):
        text = f"memory and pydantic, then a build, step {n}"
        _session(store.parent, f"0190cc{n:02d}", os.getcwd(), [_entry(0, None, text)],
                 f"2026-06-01T00:{n:02d}:00.000Z")  # fmt: skip
    named = [_entry(0, None, "something else"),
             {"type": "session_info", "id": "i1", "parentId": "e000",
              "timestamp": "2026-01-01T00:00:01.000Z", "name": "Memory Pydantic Build"}]  # fmt: skip
    _session(store.parent, "0190dddd-named", os.getcwd(), named, "2026-01-01T00:00:00.000Z")
    page = await _page("search_sessions", query="Memory Pydantic Build", limit=3)
    assert page["sessions"][0]["id"] == "0190dddd-named"
    assert page["sessions"][0]["name"] == "Memory Pydantic Build"
    assert "note" not in page
    recent = await _page("search_sessions", query="memory pydantic build", limit=3)
    assert recent["sessions"][0]["id"] == "0190dddd-named"  # its name: first, the oldest
    listed = await _page("search_sessions", limit=100)  # no query: newest first
    assert listed["sessions"][0]["id"] == "0190cc29" and listed["sessions"][-1]["id"] == (
        "0190dddd-named"
    )

    empty = await _page("search_sessions", query="nothing-here-matches")
    assert empty["sessions"] == [] and 'scope: "all"' in empty["note"]
    again = await _page("search_entries", query="nothing-here-matches")
    assert again["entries"] == [] and 'scope: "all"' in again["note"]


async def test_answers_are_compact_without_empty_fields(store: Path) -> None:
    error, text = await _call("search_sessions", query="plan")
    (session,) = json.loads(text)["sessions"]
    assert not error and "\n" not in text and ": " not in text
    assert None not in session.values() and False not in session.values()
    assert not {"labels", "tags", "pinned", "store", "name", "writingInProgress"} & set(session)
    padding = len(text) - len(session["path"]) - len(session["cwd"])
    assert padding < 300, text  # about 850 characters a session before


async def test_a_header_without_an_id_is_listed_as_pi_lists_it(store: Path) -> None:
    """Pi's listAll lists a session whose header id is null (its loader then opens none);
    the typed answer left it out of nothing but raised on the missing id."""
    header = {"type": "session", "id": None, "timestamp": "2026-06-01T00:00:00.000Z",
              "cwd": os.getcwd()}  # fmt: skip
    (store.parent / "u.jsonl").write_bytes(
        orjson.dumps(header) + b"\n" + _lines([_entry(0, None, "no id here")])
    )
    page = await _page("search_sessions", query="no id here")
    (session,) = page["sessions"]
    assert "id" not in session and session["path"].endswith("u.jsonl")


@pytest.mark.parametrize(
    ("tool", "arguments", "said"),
    [
        ("search_sessions", {"limit": 0}, "limit must be 1 to 100 (got 0)"),
        ("search_sessions", {"limit": -3}, "limit must be 1 to 100 (got -3)"),
        ("search_sessions", {"limit": 1000}, "limit must be 1 to 100 (got 1000)"),
        ("search_entries", {"query": "plan", "limit": 101}, "limit must be 1 to 100"),
        ("read_session", {"session": "0190aaaa", "limit": 201}, "limit must be 1 to 200"),
        ("get_context", {"session": "0190aaaa", "limit": 0}, "limit must be 1 to 200"),
        ("get_context", {"session": "0190aaaa", "offset": -1}, "offset must be 0 or more"),
        ("read_session", {"session": "x" * (16 << 20)}, "session: at most 4,096 characters"),
        ("get_context", {"session": "0190aaaa", "leaf": "e" * 5000}, "leaf: at most 1,000"),
        ("search_sessions", {"query": "w" * 2001}, "query over 2,000 characters (2,001)"),
        ("search_entries", {"query": "w " * 51}, "query of over 50 words (51)"),
        ("search_entries", {"query": "re:" + "w" * 2001}, "over 2,000 characters (2,001)"),
        ("search_sessions", {"query": "re:" + "w" * 2001}, "over 2,000 characters (2,001)"),
        ("search_sessions", {"limit": "x"}, "search_sessions: limit: Input should be a valid"),
        ("search_entries", {"query": "a", "scope": "x"}, "scope: Input should be 'folder' or"),
        ("read_session", {}, "read_session: session: Field required"),
        ("no_such_tool", {}, "Unknown tool: no_such_tool"),
    ],
)
async def test_arguments_out_of_range_are_one_line_errors(
    store: Path, tool: str, arguments: dict[str, Any], said: str
) -> None:
    error, text = await _call(tool, **arguments)
    assert error and said in text and "\n" not in text and len(text) < 300, text[:300]


async def test_an_unexpected_failure_is_one_line_without_its_details(
    store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_args: Any, **_kwargs: Any) -> Any:
        raise RuntimeError("detail\nfrom inside")

    monkeypatch.setattr("pitui.commands.mcp.list_sessions", broken)
    error, text = await _call("search_sessions", query="plan")
    assert error and text == "search_sessions: failed unexpectedly (the server's log says why)"


def _big_store(store: Path) -> tuple[Path, Path]:
    """A message with 300 screenshots (6 MB), one with 100,000 parts."""
    image = {"type": "image", "data": "iVBORw0KGgo" + "A" * 20_000, "mimeType": "image/png"}
    shots = [{**_entry(0, None, ""), "message": {"role": "user", "content": [image] * 300}}]
    parts = [{"type": "text", "text": f"part {n} of many"} for n in range(100_000)]
    many = [{**_entry(0, None, ""), "message": {"role": "user", "content": parts}}]
    when = "2026-05-02T00:00:00.000Z"
    return (_session(store.parent, "0190eeee-shots", os.getcwd(), shots, when),
            _session(store.parent, "0190ffff-parts", os.getcwd(), many, when))  # fmt: skip


async def test_a_page_is_bounded_in_characters_parts_included(store: Path) -> None:
    """get_context with limit=1 returned 6,032,216 characters for 300 screenshots; a
    message of a million parts was 56 MB. Now a page is at most about 60,000."""
    shots, parts = _big_store(store)
    for path in (shots, parts):
        for tool in ("get_context", "read_session"):
            error, text = await _call(tool, session=str(path), limit=1)
            page = json.loads(text)
            assert not error and len(text) < 70_000, (tool, path.name, len(text))
            assert page["truncated"] is True, tool
    page = await _page("get_context", session=str(shots), limit=1)
    (message,) = page["messages"]
    assert message["content"][0]["data"].startswith("[image data not shown: 20,011 characters")
    page = await _page("get_context", session=str(parts), limit=1)
    content = page["messages"][0]["content"]
    assert content[0] == {"type": "text", "text": "part 0 of many"}
    assert content[-1].startswith("[… ") and content[-1].endswith(" more items not shown]")


async def test_a_secret_in_a_folder_name_is_redacted_in_every_path(
    store: Path, tmp_path: Path
) -> None:
    """Pi's folder `--tmp-...-ghp_...-proj--`: the secret follows a '-', which the detector
    does not take for a boundary; read back as the cwd it is."""
    cwd = tmp_path / "keys" / KEY / "proj"
    cwd.mkdir(parents=True)
    folder = project_dir(store.parent.parent, str(cwd))
    folder.mkdir()
    _session(folder, "0190abcd-secret-folder", str(cwd),
             [_entry(0, None, "the zebra keyword")], "2026-05-03T00:00:00.000Z")  # fmt: skip
    for tool in ("search_sessions", "search_entries"):
        error, text = await _call(tool, query="zebra", scope="all")
        assert not error and "0190abcd-secret-folder" in text, tool
        assert KEY not in text and "[REDACTED:github]" in text, tool
        error, text = await _call(tool, query="zebra", scope="all", redact=False)
        assert KEY in text
    page = await _page("read_session", session="0190abcd")  # named by its id
    assert KEY not in json.dumps(page) and page["entries"][0]["text"].endswith("zebra keyword")
    (found,) = (await _page("search_sessions", query="zebra", scope="all"))["sessions"]
    error, text = await _call("read_session", session=found["path"])
    assert error and "name the session by its id" in text


class _Wire:
    """`pitui mcp` in a child process, spoken to line by line; its stderr never read."""

    def __init__(self, env: dict[str, str]) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "pitui", "mcp"], env=env, stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=os.getcwd(),
        )  # fmt: skip
        self.send(json.dumps({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "test", "version": "1"}}}).encode())  # fmt: skip
        assert self.answer()["id"] == 0
        self.send(b'{"jsonrpc":"2.0","method":"notifications/initialized"}')

    def send(self, line: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + b"\n")
        self.process.stdin.flush()

    def answer(self) -> dict[str, Any]:
        """The next line it writes; a server that stalls fails here, not the suite."""
        import select

        assert self.process.stdout is not None
        ready, _, _ = select.select([self.process.stdout], [], [], 60)
        assert ready, "no answer within 60 s"
        return json.loads(self.process.stdout.readline())  # type: ignore[no-any-return]

    def close(self) -> None:
        self.process.kill()
        self.process.wait(timeout=30)


def _env() -> dict[str, str]:
    names = ("PI_CODING_AGENT_DIR", "PITUI_CACHE_DIR", "XDG_DATA_HOME", "XDG_CONFIG_HOME",
             "XDG_CACHE_HOME", "PATH", "HOME")  # fmt: skip
    return {k: os.environ[k] for k in names if k in os.environ}


def test_every_line_gets_an_answer(store: Path) -> None:
    """The SDK dropped a line it could not read without a word: the client waited for
    ever."""
    wire = _Wire(_env())
    try:
        wire.send(b"this is not json")
        said = wire.answer()
        assert (said["id"], said["error"]["code"]) == (None, -32700)
        wire.send(b'{"jsonrpc":"2.0","id":7,"method":"tools/call","params":'
                  b'{"name":"read_session","arguments":{"session":"\\ud800"}}}')  # fmt: skip
        said = wire.answer()
        assert (said["id"], said["error"]["code"]) == (7, -32600)
        assert "lone surrogate" in said["error"]["message"]
        wire.send(b'{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"read_'
                  b'session","arguments":{"session":"' + b"x" * (5 << 20) + b'"}}}')  # fmt: skip
        said = wire.answer()
        assert (said["id"], said["error"]["code"]) == (8, -32600)
        assert "over 4 MiB" in said["error"]["message"]
        wire.send(b'{"jsonrpc":"2.0","id":9,"method":"resources/list"}')  # it has none
        assert wire.answer()["error"]["code"] == -32601
        wire.send(b'{"jsonrpc":"2.0","id":10,"method":"ping"}')
        assert wire.answer() == {"jsonrpc": "2.0", "id": 10, "result": {}}
    finally:
        wire.close()


def test_a_client_that_never_reads_stderr_is_still_answered(store: Path) -> None:
    """The SDK logged each failing call with Rich at INFO: after ~193 of them the pipe was
    full and the server stalled. Now it logs warnings only, never waiting on stderr."""
    wire = _Wire(_env())
    try:
        for n in range(1, 1001):  # ~160 bytes of Rich each: past a 64 KiB pipe
            wire.send(json.dumps({"jsonrpc": "2.0", "id": n, "method": "tools/call",
                                  "params": {"name": "no_such_tool", "arguments": {}}}).encode())  # fmt: skip
            said = wire.answer()
            assert said["id"] == n and said["result"]["isError"] is True
        wire.send(b'{"jsonrpc":"2.0","id":"last","method":"ping"}')
        assert wire.answer()["id"] == "last"
    finally:
        wire.close()
    assert wire.process.stderr is not None
    assert len(wire.process.stderr.read()) < 2_000  # little was logged


def test_requests_written_before_stdin_closes_are_all_answered(store: Path) -> None:
    """`... | pitui mcp`: the end of stdin cancelled the calls under way (6 of 44 answers
    were missing); a cancelled request is not waited for."""
    calls = [{"jsonrpc": "2.0", "id": n, "method": "tools/call", "params": {
        "name": "search_sessions" if n % 2 else "read_session",
        "arguments": {"query": f"step {n}"} if n % 2 else {"session": "0190aaaa"}}}
        for n in range(1, 41)]  # fmt: skip
    cancel = {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 99}}
    lines = [{"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "test", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"}, *calls, cancel]  # fmt: skip
    wire = "".join(json.dumps(line) + "\n" for line in lines).encode()
    done = subprocess.run([sys.executable, "-m", "pitui", "mcp"], input=wire, env=_env(),
                          capture_output=True, timeout=120, check=True)  # fmt: skip
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert sorted(a["id"] for a in answers) == list(range(41))
    assert not any(a["result"].get("isError") for a in answers if a["id"])


def test_mcp_help_prints_the_line_with_the_full_path() -> None:
    script = Path(sys.executable).with_name("pitui")
    done = subprocess.run([str(script), "mcp", "--help"], capture_output=True, text=True,
                          timeout=60, env={**os.environ, "PATH": "/usr/bin:/bin"})  # fmt: skip
    assert done.returncode == 0
    assert f"  pi mcp add pitui -- {script} mcp\n" in done.stdout


async def test_one_server_sees_sessions_written_between_its_calls(store: Path) -> None:
    """The server keeps its catalog open between calls: a later call still sees every change
    (a new session, a session grown, a session gone)."""
    from mcp import Client

    from pitui.commands.mcp import build_server

    async def ids(client: Any, query: str) -> set[str]:
        found = (await client.call_tool("search_sessions", {"query": query})).structured_content
        return {s["id"] for s in found["sessions"]}

    async with Client(build_server()) as client:
        assert await ids(client, "zebra") == set()
        cwd = json.loads(store.read_bytes().splitlines()[0])["cwd"]
        header = {"type": "session", "version": 3, "id": "0190cccc-new",
                  "timestamp": "2026-05-02T00:00:00.000Z", "cwd": cwd}  # fmt: skip
        new = store.parent / "n.jsonl"
        new.write_bytes(orjson.dumps(header) + b"\n" + _lines([_entry(0, None, "a zebra")]))
        assert await ids(client, "zebra") == {"0190cccc-new"}
        with store.open("ab") as handle:
            handle.write(_lines([_entry(40, "e029", "zebra again")]))
        assert await ids(client, "zebra") == {"0190cccc-new", "0190aaaa-mcp-test"}
        new.unlink()
        assert await ids(client, "zebra") == {"0190aaaa-mcp-test"}


async def test_file_history_answers_what_log_json_answers(
    store: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from file_edits import EditingSession

    from pitui.core.file_history import history

    cwd = Path(os.getcwd())
    s = EditingSession(cwd, seed=7)
    first = s.write("notes.txt", f"token {KEY}\n")
    s.edit("notes.txt", "token", "the token")
    s.edit("notes.txt", "nowhere", "x", error=True)  # failed: left out
    s.write(f"keys/{KEY}.txt", "x\n")
    written = s.save(store.parent.parent)
    assert main(["log", ".", "--json"]) == 0
    logged = json.loads(capsys.readouterr().out)
    read: list[str] = []
    parse = history.session_changes
    monkeypatch.setattr(history, "session_changes", lambda path: read.append(path) or parse(path))
    page = await _page("file_history", path=".", redact=False)
    assert {c.pop("store") for c in logged} == {"local"}  # MCP's are all this machine's
    assert page["changes"] == logged
    assert read == [str(written)]  # only the session the index says wrote here
    assert "nextOffset" not in page and len(page["changes"]) == 3
    redacted = await _page("file_history", path=str(cwd), limit=2)
    assert [c["id"] for c in redacted["changes"]] == [c["id"] for c in logged[:2]]
    assert redacted["nextOffset"] == 2 and KEY not in json.dumps(redacted)
    assert "[REDACTED:github]" in redacted["changes"][0]["file"]
    last = await _page("file_history", path=".", offset=2)
    assert [c["id"] for c in last["changes"]] == [first] and "nextOffset" not in last
    none = await _page("file_history", path="never-written.txt")
    assert none["changes"] == [] and 'scope: "all"' in none["note"]
    error, text = await _call("file_history", path=" ")
    assert error and "file_history needs a path" in text
