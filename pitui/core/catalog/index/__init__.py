"""The catalog's SQLite index: its database file, schema, records, reads and writes, and the
trigram index of conversation text."""
