"""Players' records: the results of finished games, statistics, ratings and the daily box."""
