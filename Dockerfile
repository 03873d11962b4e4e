# The bot in a container: `docker build -t solitaire-bot .` then
#   docker run -d --name solitaire --env-file .env -v solitaire-data:/data solitaire-bot
# The database lives on the /data volume, so it outlives the container.
# The solver's compiled core (see setup.py) needs a C compiler to build: a build stage
# makes the wheel, so the image that runs carries no compiler.
FROM python:3.11-slim AS build
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY pyproject.toml setup.py README.md ./
COPY engine ./engine
COPY render ./render
COPY bot ./bot
RUN pip wheel --no-cache-dir -q --no-deps -w /wheels .

FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DATABASE_PATH=/data/solitaire.db

RUN useradd --create-home --uid 10001 solitaire \
    && mkdir /data && chown solitaire:solitaire /data

COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir -q /wheels/*.whl && rm -rf /wheels

USER solitaire
# Working in the volume: even a relative DATABASE_PATH stays on it.
WORKDIR /data
VOLUME ["/data"]
CMD ["python", "-m", "bot"]
