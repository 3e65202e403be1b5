"""Picker: a dice-drafting pub game with one coloured die per player."""
