"""The Discord machinery every game shares: the one session component class, the click
dispatch, the live message, the shared commands of a game's group, the error funnel.

`bot.ui.platform.build_platform` wires it once at start-up; each game's command group
(a `bot.ui.game_cog.GameCog`) is built with the resulting `Platform`.
"""
