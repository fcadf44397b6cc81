# The production image: gunicorn serves the app, the same image runs the Celery worker.
FROM python:3.13-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 UV_PROJECT_ENVIRONMENT=/opt/venv UV_PYTHON_DOWNLOADS=never
# The PDF exports embed these fonts, which cover every UN script (apps/exports/pdf_fonts.py).
RUN apt-get update \
    && apt-get install -y --no-install-recommends fonts-noto-core fonts-droid-fallback fonts-dejavu-core \
    && rm -rf /var/lib/apt/lists/*
RUN pip install --no-cache-dir uv==0.13.9 && useradd --create-home planner
WORKDIR /app
# The dependencies first, in a layer of their own that only a new lock rebuilds.
COPY pyproject.toml uv.lock ./
RUN uv sync --frozen --no-dev --no-install-project
COPY . .
# The same build steps CI runs (tests/integration/test_production_image.py): the locked
# dependencies, then the static files with the production storage and its manifest.
RUN scripts/build-image
USER planner
EXPOSE 8000
CMD ["/opt/venv/bin/gunicorn", "config.wsgi:application", "--bind", "0.0.0.0:8000", "--workers", "3"]
