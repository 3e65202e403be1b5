"""Pickomino (Heckmeck): engine, computer players, rendering, adapter and tools."""
