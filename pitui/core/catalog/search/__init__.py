"""Answering from the summaries: Pi's picker search (`search`, `query`, `fuzzy`,
`regex_query`), the orders of a list (`ordering`, `collation`, `threads`), and which session a
reference names (`resolve`)."""
