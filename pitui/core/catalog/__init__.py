"""Every session's summary, indexed and searchable: `catalog.Catalog` is the entry point."""
