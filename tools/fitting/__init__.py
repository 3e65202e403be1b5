"""Fitting the computer players' constants from self-play: each script prints the lines
to paste into the module that names it."""
