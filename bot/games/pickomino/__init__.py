"""Pickomino (Heckmeck): dice, worms and the grill of tiles 21-36."""
