"""The groupings `pitui stats` sums by (a module of its own: the command names them in its
options before it imports the summing)."""

GROUPINGS = ("day", "week", "month", "model", "provider", "project", "session")
