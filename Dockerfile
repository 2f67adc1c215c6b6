# One image for every process of docker-compose.yml (web, worker, projector, scheduler),
# installed exactly as bin/test installs the checkout it tests (bin/lib/env.sh): every
# package from requirements/lock.txt, each checked against its hash, then the project
# itself without resolving anything (tests/unit/test_image.py holds the two together).
FROM python:3.11-slim
ENV PYTHONUNBUFFERED=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_CACHE_DIR=1 \
    DJANGO_SETTINGS_MODULE=services.settings
WORKDIR /app
# The lock alone first: this layer is rebuilt only when the lock changes.
COPY requirements/lock.txt requirements/lock.txt
RUN pip install --require-hashes -r requirements/lock.txt
COPY . /app
# The lock pins the build backend too (setuptools, wheel): no isolated build env fetches
# another one. Installs the `spades-tools` console script (docs/formats.md).
RUN pip install --no-deps --no-build-isolation /app
# Hashed, gzip-compressed static files in /app/staticfiles, served by whitenoise as
# immutable for ten years (docs/operations.md, "Static files"). collectstatic reads the
# settings but no secret and no database: DEBUG=1 only lets them load without a key here.
RUN SPADES_STATIC_MANIFEST=1 DEBUG=1 python manage.py collectstatic --noinput
ENV SPADES_STATIC_MANIFEST=1
# Every process runs as this unprivileged user; the code and static files stay root's
# (read-only to it). It writes only to /app/.run: the scheduler's pidfile and state,
# the projector's heartbeat.
RUN useradd --system --uid 10001 --no-create-home --home-dir /nonexistent \
        --shell /usr/sbin/nologin spades \
    && mkdir -p /app/.run && chown spades /app/.run && chmod 700 /app/.run
USER spades
