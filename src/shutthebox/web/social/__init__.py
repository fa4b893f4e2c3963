"""The table's social features: reactions sent to every board of a game."""
