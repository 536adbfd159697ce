"""The suite never touches the real user's folders: the trash the trash tests fill is a
temporary one (send2trash fixes its folder when first imported, before any fixture runs)."""

from __future__ import annotations

import os
from pathlib import Path

from send2trash import plat_other


def test_the_trash_tests_fill_is_not_the_users() -> None:
    data_home = Path(os.environ["XDG_DATA_HOME"])
    assert data_home.name == "data" and data_home.parent.name.startswith("pitui-test-user-")
    assert Path(os.fsdecode(plat_other.HOMETRASH_B)) == data_home / "Trash"
