# The Scoundrel Referee image: one image for the API and the workers; the
# command picks the role (docker-compose.yml runs both). Redis is not in it:
# compose runs the official redis image next to it.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app

# The exact packages of requirements.lock, nothing resolved at build time, so two
# builds of one commit install the same (tests/deploy/test_lock.py holds the lock
# to pyproject.toml). A layer of its own: editing the code keeps it.
COPY requirements.lock ./
RUN pip install --no-deps -r requirements.lock

# Only what the package needs, so that editing tests or docs elsewhere does
# not invalidate the install layer.
COPY pyproject.toml README.md ./
COPY scoundrel ./scoundrel
COPY domain ./domain
COPY schemas ./schemas
COPY service ./service
COPY store ./store
COPY worker ./worker
COPY cli ./cli
COPY settings ./settings
COPY log_lines ./log_lines
COPY verification ./verification
COPY webhook_targets ./webhook_targets
# the JS client module as published, which the /play page imports (package data, see pyproject.toml)
COPY clients/js/src ./clients/js/src
# the project alone (its dependencies, with the PostgreSQL driver compose's archive needs, are
# the lock's); pip check fails the build if the lock misses one
RUN pip install --no-deps --no-build-isolation . && pip check && rm -rf build *.egg-info

# A user without privileges: the service never needs root.
RUN useradd --create-home --uid 10001 --user-group scoundrel
USER scoundrel
WORKDIR /home/scoundrel

EXPOSE 8000
CMD ["scoundrel", "api", "--host", "0.0.0.0", "--port", "8000"]
