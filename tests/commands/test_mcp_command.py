"""`pitui mcp`: the four read-only tools, over the SDK's own client (stdio and in-process)
and as the real Pi sees them (`pi mcp add`, `pi mcp list`)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import orjson
import pytest

from pitui.cli import main
from pitui.core.catalog.scan.discovery import project_dir

TOOLS = ["search_sessions", "search_entries", "read_session", "get_context"]
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
    return bool(result.is_error), result.content[0].text


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
        listed = (await client.list_tools()).tools
        assert [tool.name for tool in listed] == TOOLS
        for tool in listed:
            assert tool.description and len(tool.description) > 40
            properties = tool.input_schema["properties"]
            assert all(p.get("description") for p in properties.values()), tool.name
            assert tool.annotations is not None and tool.annotations.read_only_hint
        found = await client.call_tool("search_entries", {"query": "push with"})
    data = json.loads(found.content[0].text)
    (hit,) = data["entries"]
    assert (hit["id"], hit["line"], data["nextOffset"]) == ("e000", 2, None)
    assert KEY not in hit["snippet"] and "[REDACTED:github]" in hit["snippet"]


async def test_read_session_pages_through_the_branch(store: Path) -> None:
    seen: list[str] = []
    offset: int | None = 0
    while offset is not None:
        error, text = await _call("read_session", session="0190aaaa", offset=offset, limit=7)
        assert not error and "branch to leaf e029" in text
        seen += [line.split()[3] for line in text.splitlines() if line.startswith("── [")]
        offset = int(text.rsplit("offset=", 1)[1].rstrip(")")) if "(more:" in text else None
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
    _, first = await _call("read_session", session="0190aaaa", limit=10)
    assert "(more: read on with leaf='e029', offset=10)" in first
    with store.open("ab") as out:  # Pi goes on, then branches from entry 5
        out.write(_lines([_entry(30, "e029", "later step"), _entry(31, "e005", "another way")]))
    _, same = await _call("read_session", session="0190aaaa", leaf="e029", offset=10, limit=30)
    assert [line.split()[3] for line in same.splitlines() if line.startswith("── [")] == [
        f"e{n:03d}" for n in range(10, 30)
    ]
    _, now = await _call("read_session", session="0190aaaa", offset=0, limit=30)
    assert "branch to leaf e031" in now and "another way" in now and "e006" not in now


async def test_get_context_pages_are_pitui_context_json(
    store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["context", "--json", str(store)]) == 0
    expected = json.loads(capsys.readouterr().out)
    messages: list[Any] = []
    offset: int | None = 0
    while offset is not None:
        error, text = await _call(
            "get_context", session=str(store), offset=offset, limit=8, redact=False
        )
        page = json.loads(text)
        assert not error and page["leaf"] == "e029" and not page["truncated"]
        assert (
            page["model"] == expected.get("model")
            and page["thinkingLevel"] == expected["thinkingLevel"]
        )
        messages += page["messages"]
        offset = page["nextOffset"]
    assert messages == expected["messages"]


async def test_bad_references_are_one_line_tool_errors(store: Path) -> None:
    error, text = await _call("read_session", session="0190aaa")
    assert error and "2 sessions have ids starting" in text and "\n" not in text
    error, text = await _call("get_context", session="nobody")
    assert error and "no session with id" in text
    error, text = await _call("read_session", session="0190aaaa", leaf="nope")
    assert error and "no entry with id 'nope'" in text


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
    env = {**os.environ, "HOME": str(home)}  # PI_CODING_AGENT_DIR: the test's store
    add = [str(node), str(cli), "mcp", "add", "pitui", "--", sys.executable, "-m", "pitui", "mcp"]
    subprocess.run(add, env=env, check=True, capture_output=True, timeout=60)
    config = json.loads((Path(os.environ["PI_CODING_AGENT_DIR"]) / "mcp.json").read_text())
    assert config["mcpServers"]["pitui"]["args"] == ["-m", "pitui", "mcp"]
    listed = subprocess.run(
        [str(node), str(cli), "mcp", "list"], env=env, capture_output=True, text=True, timeout=60
    )
    assert listed.returncode == 0, listed.stdout + listed.stderr
    assert "pitui: connected, 4 tools" in listed.stdout
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
