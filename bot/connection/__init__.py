"""How the process talks to Discord and survives a restart."""
