# The bot as a container: slim Python, a non-root user, the SQLite data on a volume
# (or PostgreSQL: the image has asyncpg; compose.yaml runs it so).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app

# Install the dependencies first, so a code change does not re-download them.
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY cogs ./cogs
RUN pip install '.[postgres]' \
    && useradd --create-home --uid 10001 pickomino \
    && mkdir -p /app/data \
    && chown pickomino:pickomino /app/data

USER pickomino

# DATABASE_URL defaults to sqlite:///data/pickomino.db, relative to /app.
VOLUME ["/app/data"]

# SIGTERM (docker stop) shuts the bot down cleanly: games are already committed.
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot"]
