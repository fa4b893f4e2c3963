"""The terminal game: the board drawn with rich, and the game loop."""
