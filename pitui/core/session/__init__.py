"""One open session: reading, the entry tree, the context Pi would send."""
