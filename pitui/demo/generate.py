"""Deterministic generators of realistic Pi session files: the public entry point.

Files are written exactly as Pi 1.6.0 writes them, and the same arguments always give the same
bytes (seeded randomness, fixed base dates). Used by tests (conformance corpus against the Pi
oracle), benchmarks (large sessions and stores) and ``pitui --demo`` (:func:`write_demo_store`).

This module only re-exports; import from here. The code lives in one module per concept:

- :mod:`pitui.demo.builder`: JSON lines, session paths, ids, headers, usage, PNGs, and
  :class:`SessionBuilder`, which appends entries the way Pi's SessionManager does;
- :mod:`pitui.demo.content`: text templates and one user/assistant/tool turn;
- :mod:`pitui.demo.varied`: a v3 session with every entry type and tree shape;
- :mod:`pitui.demo.legacy`: v1 and v2 sessions;
- :mod:`pitui.demo.corpus`: the conformance corpus (sessions and odd files);
- :mod:`pitui.demo.large`: large sessions and many-session stores (benchmarks);
- :mod:`pitui.demo.script` (the demo conversations, as data) and :mod:`pitui.demo.store`
  (writes them: ``pitui --demo``).
"""

from __future__ import annotations

from pitui.demo.builder import (
    BASE_MS,
    MISSING_PARENT_ID,
    MODELS,
    THINKING_LEVELS,
    Entry,
    SessionBuilder,
    cost_value,
    dumps,
    iso_ms,
    make_header,
    make_usage,
    png_base64,
    session_dir_name,
    session_file_name,
    session_path,
    uuid4,
    uuid7,
    write_session,
)
from pitui.demo.content import SYSTEM_MESSAGE
from pitui.demo.corpus import CORPUS_CWDS, generate_corpus
from pitui.demo.large import generate_large_session, generate_store
from pitui.demo.legacy import generate_v1_session, generate_v2_session
from pitui.demo.script import DEMO_PROJECTS, DEMO_SCRIPTS, DemoScript, Step
from pitui.demo.store import DEMO_BASE_MS, write_demo_store
from pitui.demo.varied import generate_varied_session

__all__ = [
    "BASE_MS",
    "CORPUS_CWDS",
    "DEMO_BASE_MS",
    "DEMO_PROJECTS",
    "DEMO_SCRIPTS",
    "MISSING_PARENT_ID",
    "MODELS",
    "SYSTEM_MESSAGE",
    "THINKING_LEVELS",
    "DemoScript",
    "Entry",
    "SessionBuilder",
    "Step",
    "cost_value",
    "dumps",
    "generate_corpus",
    "generate_large_session",
    "generate_store",
    "generate_v1_session",
    "generate_v2_session",
    "generate_varied_session",
    "iso_ms",
    "make_header",
    "make_usage",
    "png_base64",
    "session_dir_name",
    "session_file_name",
    "session_path",
    "uuid4",
    "uuid7",
    "write_demo_store",
    "write_session",
]
