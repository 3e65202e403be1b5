"""python -m bot.observability.probe: the container's HEALTHCHECK.

Exits 0 when HEALTH_ADDR is not set (there is nothing to ask, and a bot without the
endpoint must not be marked unhealthy), otherwise 0 only if ``/healthz`` answers 200
within 3 seconds. Settings are read as the bot reads them (environment, then ``.env``).
"""

from __future__ import annotations

import sys
import urllib.error
import urllib.request

from bot.config import ConfigError, load_settings
from bot.config.address import parse_host_port, probe_host

TIMEOUT = 3.0
HEALTHY, UNHEALTHY = 0, 1


def healthz_url(health_addr: str) -> str:
    host, port = parse_host_port(health_addr)
    host = probe_host(host)
    if ":" in host:
        host = f"[{host}]"  # IPv6 in a URL
    return f"http://{host}:{port}/healthz"


def probe(health_addr: str | None, timeout: float = TIMEOUT) -> tuple[int, str]:
    """The exit status and one line saying why."""
    if not health_addr:
        return HEALTHY, "HEALTH_ADDR is not set: nothing to probe"
    url = healthz_url(health_addr)
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return HEALTHY, f"{url}: {response.status}"
    except urllib.error.HTTPError as error:  # 503 with the reason as JSON
        return UNHEALTHY, f"{url}: {error.code} {error.read().decode(errors='replace')}"
    except (urllib.error.URLError, OSError) as error:
        return UNHEALTHY, f"{url}: {error}"


def main() -> int:
    try:
        health_addr = load_settings(require_token=False).health_addr
    except ConfigError as error:
        print(f"error: {error}", file=sys.stderr)
        return UNHEALTHY
    status, line = probe(health_addr)
    print(line)
    return status


if __name__ == "__main__":
    sys.exit(main())
