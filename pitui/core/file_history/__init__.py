"""What sessions did to files: their `write` and `edit` calls (`pitui log`, `pitui blame`)."""
