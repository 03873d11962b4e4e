"""The core's flows: playing a game, statistics and the daily deal, a player's data and
settings, and when the solver runs for players."""
