"""EntryType names every line type Pi 1.6.0 declares, and nothing else."""

from __future__ import annotations

import re

import pytest
from oracle import oracle_dir

from pitui.core.format.entry_types import ENTRY_TYPES, EntryType
from pitui.core.format.models import KNOWN_ENTRY_TYPES

DTS = "node_modules/@earendil-works/pi-coding-agent/dist/core/session-manager.d.ts"


@pytest.mark.oracle  # Pi's installed types
def test_the_types_pi_declares() -> None:
    text = (oracle_dir() / DTS).read_text()
    declared = set(re.findall(r'^\s*type: "([a-z_]+)";', text, re.MULTILINE))
    assert {t.value for t in EntryType} == declared


def test_every_entry_type_has_a_model() -> None:
    assert ENTRY_TYPES == KNOWN_ENTRY_TYPES
    assert EntryType.COMPACTION == "compaction"
