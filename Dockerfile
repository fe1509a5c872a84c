# Emperors of the Dynasty: the bot in a container. Build: docker build -t emperors .
# Settings come from the environment (compose.yaml passes .env); no token is in the image.

# Stage 1 builds the wheels: the project's with the engine compiled by mypyc (it needs a C
# compiler, which the image the bot runs in does not keep), and its dependencies'.
FROM python:3.11-slim-bookworm AS wheels

ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /src
COPY pyproject.toml setup.py README.md ./
COPY engine ./engine
COPY data ./data
COPY bot ./bot
COPY cogs ./cogs
# The sentry extra: SENTRY_DSN works in the image too (bot/tracking.py).
RUN pip wheel --no-cache-dir --wheel-dir /wheels ".[sentry]"

# Stage 2 runs the bot: the wheels only, no compiler.
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# The bot runs as a user of its own, which owns only the data volume.
RUN groupadd --system --gid 10001 emperors \
    && useradd --system --uid 10001 --gid emperors --home-dir /app --shell /usr/sbin/nologin emperors \
    && mkdir -p /data \
    && chown emperors:emperors /data \
    && chmod 700 /data

WORKDIR /app
COPY --from=wheels /wheels /wheels
RUN pip install --no-cache-dir --no-index /wheels/*.whl && rm -rf /wheels

# The database (and the daily backups) live on the volume; /metrics and /healthz listen
# inside the container only, unless METRICS_HOST=0.0.0.0 is set.
ENV EMPERORS_DB=/data/emperors.db \
    BACKUP_DIR=/data/backups \
    METRICS_PORT=9464
VOLUME ["/data"]
USER 10001:10001

HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import os, sys, urllib.request; url = 'http://127.0.0.1:%s/healthz' % os.environ.get('METRICS_PORT', '9464'); sys.exit(0 if urllib.request.urlopen(url, timeout=8).status == 200 else 1)"]

# SIGTERM (docker stop) stops the bot cleanly: exit code 0.
STOPSIGNAL SIGTERM
ENTRYPOINT ["python", "-m", "bot"]
CMD ["run"]
