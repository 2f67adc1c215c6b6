# One image for every process of docker-compose.yml (web, worker, projector, scheduler).
FROM python:3.11-slim
ENV PYTHONUNBUFFERED=1 PIP_DISABLE_PIP_VERSION_CHECK=1 DJANGO_SETTINGS_MODULE=services.settings
WORKDIR /app
COPY . /app
RUN pip install --no-cache-dir /app
