"""Changes to session files: labels, names, trash, hand-off to pi."""
