"""Live feeds: every watcher of a game hears of each stored batch of its events, and who is
at the table now."""
