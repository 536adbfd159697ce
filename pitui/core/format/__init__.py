"""The Pi session file format and its JavaScript semantics."""
