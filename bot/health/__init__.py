"""`python -m bot.health FILE`: the container health check that reads the heartbeat file."""
