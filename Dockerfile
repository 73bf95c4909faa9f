# PCM Planner web app. Build: docker build -t pcm-planner .   Run: docker run -p 8501:8501 pcm-planner
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PCM_PLANNER_DATA=/app/data \
    NUMBA_CACHE_DIR=/tmp/numba_cache \
    STREAMLIT_BROWSER_GATHER_USAGE_STATS=false

RUN useradd --create-home --uid 10001 planner
WORKDIR /app
COPY . /app
# app.warmup runs every page once: numba kernels compiled and slow bundled-data results cached in
# /tmp/numba_cache, so the first visit does not pay for them (issue 18: cold start)
RUN pip install . && mkdir -p /tmp/numba_cache && python -m app.warmup && chown -R planner /tmp/numba_cache

USER planner
EXPOSE 8501
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["python", "-c", "import urllib.request,sys; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:8501/_stcore/health', timeout=4).read() == b'ok' else 1)"]
CMD ["streamlit", "run", "app/main.py", "--server.address=0.0.0.0", "--server.port=8501"]
