"""Bringing the index up to date with the files: which files (`discovery`), what changed
(`filestat`), reading new bytes (`scanner`, `lines`, `tools`), worker processes, and the two
passes a `Catalog` runs (`scan_pass`, `tool_pass`)."""
