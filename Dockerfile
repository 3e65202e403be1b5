# syntax=docker/dockerfile:1
# The bot as a container, in three stages:
#   page     the table's page (TypeScript) built with Node from its lock: only its
#            built files go on;
#   build    wheels of the locked dependencies (hash-checked) and of the project, the
#            built page inside;
#   runtime  slim Python, a non-root user, only those wheels: no compiler, no pip cache,
#            no source tree; the SQLite data on a volume (or PostgreSQL: the runtime
#            lock has the postgres extra, asyncpg; compose.yaml runs it so).
# Both stages use the Python the lock files were compiled with (see requirements/*.lock).

FROM node:20-bookworm-slim AS page

WORKDIR /page

# The exact pins of package-lock.json first, so a source change does not install again.
COPY bot/table/page/package.json bot/table/page/package-lock.json ./
RUN npm ci --no-audit --no-fund --loglevel=error

COPY bot/table/page/build.mjs bot/table/page/tsconfig.json ./
COPY bot/table/page/src ./src
RUN npm run --silent check && npm run --silent build


FROM python:3.11-bookworm AS build

ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /src

# The dependencies first, so a code change does not download them again. A package that
# ships no wheel for this platform is built here, where the full image has a compiler.
COPY requirements/runtime.lock requirements/runtime.lock
RUN pip wheel --require-hashes --wheel-dir /wheels -r requirements/runtime.lock

COPY pyproject.toml README.md ./
COPY bot ./bot
COPY --from=page /page/dist ./bot/table/page/dist
RUN pip wheel --no-deps --wheel-dir /wheels .


FROM python:3.11-slim-bookworm AS runtime

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# FriBiDi: Pillow's wheel lays text out with raqm (and its own HarfBuzz) but loads
# FriBiDi from the system; with it a right-to-left name (Arabic, Hebrew) in the end
# picture is drawn in order and its letters joined (bot.pictures.names), without it
# only put in order. About 170 KB, no other dependency.
RUN apt-get update \
    && apt-get install -y --no-install-recommends libfribidi0 \
    && rm -rf /var/lib/apt/lists/*

# The wheels are mounted for this one step rather than copied, so no layer keeps them.
# --no-index: nothing is fetched here; pip check fails the build if the lock misses a
# dependency of pyproject.toml (run `make lock`).
RUN --mount=type=bind,from=build,source=/wheels,target=/wheels \
    pip install --no-index --no-deps /wheels/*.whl \
    && pip check \
    && useradd --create-home --uid 10001 pickomino \
    && mkdir -p /app/data/cache \
    && chown -R pickomino:pickomino /app/data

WORKDIR /app
USER pickomino

# DATABASE_URL defaults to sqlite:///data/pickomino.db, relative to /app.
VOLUME ["/app/data"]

# /healthz and /metrics, when HEALTH_ADDR=0.0.0.0:8081 (off unless set).
EXPOSE 8081

# Asks /healthz when HEALTH_ADDR is set; passes when it is not (nothing to ask).
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-m", "bot.observability.probe"]

# SIGTERM (docker stop) shuts the bot down cleanly: games are already committed.
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot"]
