"""An MCP server that has tools and nothing else, on the SDK's low-level `Server` (its public
API). The SDK's `MCPServer` always serves resources and prompts too, and reports having
them; this one's capabilities name tools only.

Each tool is a typed function: pydantic reads its signature for the arguments' schema and
checks them, its return type gives the `outputSchema`. A call runs on a worker thread (the
tools read files); its typed value is answered as structured content and as the same JSON,
compact. Every failure is one line: arguments of the wrong type, pitui's own errors, and an
unexpected exception (logged, its text kept from the client, as the SDK does).
"""

from __future__ import annotations

import functools
import inspect
import logging
import typing
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import anyio.to_thread
import mcp_types as types
from mcp.server.lowlevel import Server
from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError, create_model

from pitui.commands.support.json_output import compact_json
from pitui.core.errors import PituiError
from pitui.core.rows.safe_text import one_line

_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class TypedTool:
    """A tool's function, the model that checks its arguments, and what `tools/list` says."""

    function: Callable[..., Any]
    arguments: type[BaseModel]
    listed: types.Tool


def typed_tool(
    function: Callable[..., Any], annotations: types.ToolAnnotations | None = None
) -> TypedTool:
    """The tool named as `function`, described by its docstring."""
    name = function.__name__
    hints = typing.get_type_hints(function, include_extras=True)
    fields: dict[str, Any] = {
        parameter.name: (
            hints[parameter.name],
            ... if parameter.default is inspect.Parameter.empty else parameter.default,
        )
        for parameter in inspect.signature(function).parameters.values()
    }
    arguments = create_model(f"{name}Arguments", __config__=ConfigDict(extra="ignore"), **fields)
    listed = types.Tool(
        name=name,
        description=inspect.cleandoc(function.__doc__ or ""),
        input_schema=arguments.model_json_schema(),
        output_schema=TypeAdapter(hints["return"]).json_schema(mode="serialization"),
        annotations=annotations,
    )
    return TypedTool(function, arguments, listed)


def tools_server(
    name: str, version: str, instructions: str, tools: Sequence[TypedTool]
) -> Server[Any]:
    """A server answering `tools/list` and `tools/call` for `tools`."""
    by_name = {tool.listed.name: tool for tool in tools}

    async def list_tools(_context: Any, _params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[tool.listed for tool in tools])

    async def call_tool(_context: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        tool = by_name.get(params.name)
        if tool is None:
            return _failed(f"Unknown tool: {params.name}")
        return await _called(tool, params.arguments or {})

    return Server(
        name,
        version=version,
        instructions=instructions,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


async def _called(tool: TypedTool, given: dict[str, Any]) -> types.CallToolResult:
    name = tool.listed.name
    try:
        arguments = tool.arguments.model_validate(given)
    except ValidationError as error:
        return _failed(f"{name}: {_first_problem(error)}")
    try:
        data = await anyio.to_thread.run_sync(functools.partial(tool.function, **dict(arguments)))
    except PituiError as error:
        return _failed(f"{name}: {error}")
    except Exception:
        _log.exception("tool %s failed", name)
        return _failed(f"{name}: failed unexpectedly (the server's log says why)")
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=compact_json(data))], structured_content=data
    )


def _first_problem(error: ValidationError) -> str:
    """The first wrong argument and what is wrong with it (not the value: the caller's)."""
    problem = error.errors(include_url=False, include_input=False)[0]
    where = ".".join(str(part) for part in problem["loc"]) or "arguments"
    more = error.error_count() - 1
    return f"{where}: {problem['msg']}" + (f" (and {more} more)" if more else "")


def _failed(message: str) -> types.CallToolResult:
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=one_line(message))], is_error=True
    )
