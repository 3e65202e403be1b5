"""What the benchmarks share: their arguments and intervals, plots, /proc readings, a
PostgreSQL to kill, Picker's kept tables, and the players they measure against."""
