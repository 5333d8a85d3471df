# The cardscore web app as a container image: `cardscore serve` with PostgreSQL support and
# photo recognition. See docs/deploy.md (deploy/compose.yaml runs several behind one address).
FROM python:3.11-slim

ENV PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
# OpenCV (recognition) needs these shared libraries even headless.
RUN apt-get update && apt-get install -y --no-install-recommends libglib2.0-0 libgl1 \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY pyproject.toml setup.py README.md ./
COPY src ./src
RUN pip install '.[web,postgres,vision]' && useradd --create-home cardscore

USER cardscore
EXPOSE 8000
# DATABASE_URL (postgresql://…) and CARDSCORE_SECRET (shared by every instance) come from the
# environment; without DATABASE_URL the app keeps an SQLite file in the container's home.
CMD ["cardscore", "serve", "--host", "0.0.0.0", "--port", "8000", "--workers", "2"]
HEALTHCHECK --interval=30s --timeout=3s \
    CMD python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/api/health')"
