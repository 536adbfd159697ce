"""Every session's summary, indexed and searchable: `catalog.Catalog` is the entry point.

`index/`: the SQLite index; `scan/`: bringing it up to date with the files; `session_info/`:
a session's summary from its lines (Pi's buildSessionInfo); `search/`: answering from the
summaries. What they share: `summary` (`SessionSummary`), `scope` (which files are listed),
`known` (the summaries in memory) and `lossless_json` (the index's JSON).
"""
