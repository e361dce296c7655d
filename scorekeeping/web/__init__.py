"""The pages: the table, the round entry, the archive, the installable app, and what a phone remembers."""
