"""Knowing the store: usage and cost across sessions, what makes sessions large."""
