"""Developer scripts beside the bot and its benchmarks (python -m tools.<package>.<name>)."""
