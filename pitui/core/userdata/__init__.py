"""The user's own data about sessions (pins, tags): never written into session files."""
