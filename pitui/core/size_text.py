"""A byte count as every screen and command shows it (`pitui du`, the selections of `prune`
and `archive`, the app's size column, sizes view, trash and images, an exported image)."""

from __future__ import annotations


def human_size(size: float) -> str:
    """Bytes as B, KB, MB or GB (binary units, one decimal above bytes)."""
    for unit in ("B", "KB", "MB"):
        if size < 1024:
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{size:.1f} GB"
