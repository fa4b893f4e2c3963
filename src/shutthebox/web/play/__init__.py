"""Playing a game on the server: its seats, its table, the games in memory, the one way to
change a game, what the page is sent, and the server's own steps (computers, the clock)."""
