"""What an operator sees of the running bot: metrics, the health endpoint, the heartbeat
file, JSON logs.

The modules are imported one by one (``bot.observability.metrics`` and so on) rather
than re-exported here, so reading the configuration or probing the health endpoint
does not import the Prometheus client or aiohttp's web server.
"""
