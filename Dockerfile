# The bot in a container: `docker build -t solitaire-bot .` then
#   docker run -d --name solitaire --env-file .env -v solitaire-data:/data solitaire-bot
# The database lives on the /data volume, so it outlives the container. With the Activity
# set up (DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET in .env), the bot also serves its page
# on port 8080: publish it to the reverse proxy in front, e.g. `-p 127.0.0.1:8080:8080`.
# Every release installed is the lock's (requirements.lock), checked against its hash.
# The solver's compiled core (see setup.py) needs a C compiler to build: a build stage
# makes the wheels, so the image that runs carries no compiler and no build tools.
FROM python:3.11-slim AS build
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY requirements.lock ./
# The build tools (setuptools, mypy for mypyc) come from the lock too, so the build is
# made without pip's isolation, which would fetch whatever is newest.
RUN pip install --no-cache-dir -q --require-hashes -r requirements.lock \
    && pip wheel --no-cache-dir -q --require-hashes -r requirements.lock -w /wheels
COPY pyproject.toml setup.py README.md ./
COPY engine ./engine
COPY render ./render
COPY bot ./bot
RUN pip wheel --no-cache-dir -q --no-deps --no-build-isolation -w /wheels .

FROM python:3.11-slim

# The page listens on every interface of the container (its loopback would reach no one);
# it is served only where the Activity is set up, and --dev refuses anything but loopback.
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DATABASE_PATH=/data/solitaire.db \
    WEB_HOST=0.0.0.0 \
    WEB_PORT=8080

RUN useradd --create-home --uid 10001 solitaire \
    && mkdir /data && chown solitaire:solitaire /data

# Only the bot and what it depends on, from the locked wheels alone (the build tools among
# them are left out: nothing the bot runs needs them).
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir -q --no-index --find-links /wheels solitaire-bot \
    && rm -rf /wheels

USER solitaire
# Working in the volume: even a relative DATABASE_PATH stays on it.
WORKDIR /data
VOLUME ["/data"]
EXPOSE 8080
CMD ["python", "-m", "bot"]
