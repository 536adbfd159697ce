"""Answering from the summaries: Pi's picker search (`search`, `query`, `fuzzy`,
`regex_query`), the orders of a list (`ordering`, `collation`, `threads`), and which session a
reference names (`resolve`).

The orders a list can take are named here: `pitui list` names them in its options, and a warm
listing gives its kept answer without importing anything else of the catalog.
"""

SORTS = ("threaded", "recent", "relevance", "cost", "size")
MEASURES = {"cost": "total_cost", "size": "size"}  # sorts by a summary field, largest first
