"""Searching sessions entry by entry (`pitui grep`, the MCP server's `search_entries`)."""
