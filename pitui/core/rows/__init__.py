"""The `/tree` view model: rows, their text, and text made safe to show."""
