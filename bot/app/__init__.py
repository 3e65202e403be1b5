"""The process put together: the bot, its start-up, command sync, shutdown and takeover."""
