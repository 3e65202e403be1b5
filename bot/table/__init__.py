"""The table: both games as a Discord Activity, one session with the live message."""
