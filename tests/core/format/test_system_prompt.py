"""A system message's text: Pi's sections, in Pi's order, wherever one is shown or exported."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from entry_builders import header, message_entry
from oracle import oracle_available, oracle_dir

from pitui.cli import main
from pitui.core.format.system_prompt import system_text

SECTIONS = {"preamble": "You are pi.", "tools": "<tools>\nread\n</tools>", "10": "ten", "2": "two"}
PROMPT = {"role": "system", "content": "", "sections": SECTIONS, "timestamp": 1}
PI_TEXT = "two\n\nten\n\nYou are pi.\n\n<tools>\nread\n</tools>"  # array-index keys first


def _pis_texts(messages: list[dict[str, Any]]) -> list[str]:
    """pi-ai's own getSystemMessageText of each message."""
    node = oracle_available()
    if node is None:
        pytest.skip("Node/Pi oracle cannot be installed")
    text_js = oracle_dir() / "node_modules/@earendil-works/pi-ai/dist/utils/text.js"
    script = (
        f"const {{ getSystemMessageText }} = await import({json.dumps(text_js.as_uri())});"
        "const messages = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
        "process.stdout.write(JSON.stringify(messages.map(getSystemMessageText)));"
    )
    done = subprocess.run(
        [node, "--input-type=commonjs", "-e", f"(async () => {{ {script} }})()"],
        input=json.dumps(messages),
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout)  # type: ignore[no-any-return]


@pytest.mark.oracle
def test_the_text_is_pis() -> None:
    messages = [
        PROMPT,
        {
            "role": "system",
            "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}],
        },
        {"role": "system", "content": "base", "sections": {"rules": "", "x": "y"}},
        {"role": "system", "content": ""},
    ]
    assert [system_text(m) for m in messages] == _pis_texts(messages)
    assert system_text(PROMPT) == PI_TEXT


def test_a_removed_section_is_named() -> None:
    patch = {"role": "system", "content": "", "sections": {"docs": None, "cwd": "<cwd>/p</cwd>"}}
    assert system_text(patch) == '<cwd>/p</cwd>\n\nRemoved system prompt section "docs".'


def _session(tmp_path: Path) -> Path:
    lines = [
        header(),
        message_entry("s1", None, PROMPT),
        message_entry("u1", "s1", {"role": "user", "content": "hi", "timestamp": 2}, 1),
    ]
    path = tmp_path / "s.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def test_context_and_markdown_export_show_the_sections(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _session(tmp_path)
    assert main(["context", str(path)]) == 0
    assert f"── system (message s1)\n{PI_TEXT}\n" in capsys.readouterr().out
    out = tmp_path / "s.md"
    assert main(["export", str(path), "-o", str(out)]) == 0
    assert PI_TEXT in out.read_text()


def test_the_context_pane_shows_the_sections(tmp_path: Path) -> None:
    from pitui.core.session.session import Session
    from pitui.ui.widgets.context_pane import prepare_context

    view = prepare_context(Session(_session(tmp_path)).context())
    system = next(row for row in view.rows if row.role == "system")
    assert system.text == "two  ten  You are pi.  <tools> read </tools>"
