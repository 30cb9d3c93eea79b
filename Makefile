# The two commands: `make run` and `make test`. Both set everything up on a fresh machine.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat requirements.lock pyproject.toml | cksum | cut -d' ' -f1)
PORT ?= 8000
TEST_ARGS ?=

.PHONY: install run test lint format bench regex-count rules-report worker beat migrate lock clean

$(STAMP): requirements.lock pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -r requirements.lock
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

install: $(STAMP)

migrate: install
	$(BIN)/python manage.py migrate --noinput

run: migrate
	$(BIN)/python manage.py seed_demo
	$(BIN)/daphne -b 127.0.0.1 -p $(PORT) config.asgi:application

test: install
	$(BIN)/pytest -n 2 --dist loadfile $(TEST_ARGS)

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy .

format: install
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

bench: migrate
	$(BIN)/python bench/run.py

# The regular-expression patterns written in the project, by package (target: at most 80).
regex-count: install
	$(BIN)/python bench/regex_count.py

# Every rule and nudge of the offline table with its hits and precision on each non-frozen
# dataset (docs/intents-offline.md).
rules-report: install
	$(BIN)/python manage.py eval_intents --rules

worker: migrate
	$(BIN)/celery -A config worker -Q celery,maintenance --loglevel=INFO

beat: migrate
	$(BIN)/celery -A config beat --loglevel=INFO

# Re-resolve the locked set from pyproject.toml's ranges (needs a package index).
lock:
	rm -rf .lock-venv && $(PYTHON) -m venv .lock-venv
	.lock-venv/bin/pip install --quiet ".[dev]"
	.lock-venv/bin/pip freeze --exclude omniforge-conversations > requirements.lock
	rm -rf .lock-venv build *.egg-info

clean:
	rm -rf $(VENV) .test-db-* staticfiles
