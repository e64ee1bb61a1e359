# The bot in a container: `docker compose up -d` (compose.yaml, with PostgreSQL) or
#   docker build -t gamenight-bot . && docker run -d --env-file .env -v gamenight-data:/data gamenight-bot
# Settings come from the environment (or /data/.env); a SQLite database, if used, lives in /data.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
# Dependencies first, so editing the code does not reinstall them: a stub package lets pip resolve them.
COPY pyproject.toml README.md LICENSE ./
RUN mkdir bot && touch bot/__init__.py && pip install . && pip uninstall --yes gamenight-bot && rm -rf bot build *.egg-info
COPY bot ./bot
COPY cogs ./cogs
COPY rules ./rules
RUN pip install --no-deps . && rm -rf build *.egg-info \
    && useradd --system --uid 10001 --user-group --home-dir /data --create-home bot

# BOT_HOME holds .env (optional here) and the data directory (sqlite:///./data/bot.sqlite3 → /data/data/).
# METRICS_PORT serves /healthz and /metrics inside the container (127.0.0.1 unless METRICS_HOST says
# otherwise); the health check below asks /healthz: gateway connected and database answering.
ENV BOT_HOME=/data \
    METRICS_PORT=9108
USER bot
WORKDIR /data
VOLUME ["/data"]
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD python -c "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:' + os.environ['METRICS_PORT'] + '/healthz', timeout=4)"
# The bot is PID 1 here: it handles SIGTERM itself (finishes the clicks in flight, closes the database, exits 0).
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot"]
