"""Watching session folders and keeping open sessions live."""
