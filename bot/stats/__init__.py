"""Game results, statistics and leaderboards (the history issue); pure, no discord."""
