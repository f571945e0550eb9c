# webmdp's RL server as an image: OpenEnv's providers, HF Spaces and SkyRL's OpenEnv bridge
# start it like any OpenEnv environment (openenv.yaml beside this file names the app).
#   docker build -t webmdp .
#   docker run --rm -p 127.0.0.1:8000:8000 -e WEBMDP_RL_SITE=shopping webmdp
# Options are WEBMDP_RL_* variables (docs/rl.md); WEBMDP_RL_WORKERS sets uvicorn's workers.
# The server inside binds 0.0.0.0, but its access checks are loopback's unless
# WEBMDP_RL_HOST says otherwise: clients reach it as localhost through the published port.
# Reached under another name (a Space, a cluster), set WEBMDP_RL_HOST=0.0.0.0 and
# WEBMDP_RL_TOKEN (clients send Authorization: Bearer TOKEN), or WEBMDP_RL_ALLOW_HOST.
FROM python:3.11-slim
ENV PYTHONUNBUFFERED=1 PIP_DISABLE_PIP_VERSION_CHECK=1 \
    WEBMDP_CACHE_DIR=/var/cache/webmdp WEBMDP_RL_WORKERS=1
WORKDIR /opt/webmdp
COPY pyproject.toml README.md PYPI.md ./
COPY src ./src
COPY scripts/image_setup.sh scripts/ensure_chromium.sh ./scripts/
RUN PYTHON=python bash scripts/image_setup.sh /opt/webmdp all
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
  CMD python -c "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/health', timeout=4).status != 200)"
CMD ["sh", "-c", "exec uvicorn webmdp.rl.app:create_app --factory --host 0.0.0.0 --port 8000 --workers \"$WEBMDP_RL_WORKERS\" --log-level warning"]
