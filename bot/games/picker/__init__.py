"""Picker, a short dice-drafting game: engine, computer players, scenario runner, bench."""
