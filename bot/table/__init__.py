"""The table: the games as a Discord Activity (the page, its server, who a tab is)."""
