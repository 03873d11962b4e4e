# The bot in a container: `docker build -t solitaire-bot .` then
#   docker run -d --name solitaire --env-file .env -v solitaire-data:/data solitaire-bot
# The database lives on the /data volume, so it outlives the container.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DATABASE_PATH=/data/solitaire.db

RUN useradd --create-home --uid 10001 solitaire \
    && mkdir /data && chown solitaire:solitaire /data

WORKDIR /app
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY render ./render
COPY bot ./bot
# The README's install step.
RUN pip install --no-cache-dir -q .

USER solitaire
# Working in the volume: even a relative DATABASE_PATH stays on it.
WORKDIR /data
VOLUME ["/data"]
CMD ["python", "-m", "bot"]
