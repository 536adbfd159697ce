"""What a query across sessions reads, for `pitui list`, `grep`, `log`, `blame`, the
selections of `prune` / `archive` and the MCP server: the catalog opened on the stores a query
names (the archive, the remotes' mirrors), the sessions in scope with pins and tags applied,
and the problems met, one line each (`catalogs`, `sessions`, `left_out`).
"""
