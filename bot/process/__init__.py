"""The process's threads, memory and background work."""
