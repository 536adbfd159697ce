"""The orders a session list can take (a module of its own: `pitui list` names them in its
options before it imports the search)."""

SORTS = ("threaded", "recent", "relevance", "cost", "size")
MEASURES = {"cost": "total_cost", "size": "size"}  # sorts by a summary field, largest first
