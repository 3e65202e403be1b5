"""The games: one folder each, and the registry that names them."""
