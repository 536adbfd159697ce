"""`SummaryBuilder` and its helpers, under their old name (the code is in `entry_rules`)."""

from pitui.core.catalog.entry_rules import SummaryBuilder, extract_text, node_mtime_ms, split_lines

__all__ = ["SummaryBuilder", "extract_text", "node_mtime_ms", "split_lines"]
