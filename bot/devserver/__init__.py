"""A local Discord for the bot: the stand-in server, and the page that plays on it.

`standin.FakeDiscord` speaks Discord's REST API v10 and gateway on this machine and
enforces Discord's rules (the 3-second first answer, one callback per interaction, the
size limits); the end-to-end tests and `make play` use the same one. `payloads` builds
the interaction payloads Discord's gateway delivers, for benchmarks that drive the bot
without a server. `play` (`python -m bot.devserver`) runs the real bot process against
the stand-in and serves a page where people play in a browser.
"""
