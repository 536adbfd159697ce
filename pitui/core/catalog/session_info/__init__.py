"""Pi's `buildSessionInfo`: a session's summary built from its lines (`builder`), by exact
rules (`entry_rules`) or the fast path for common shapes (`fast_entries`)."""
