"""The games, one folder each: engine, computer players, rendering, adapter, pictures."""
