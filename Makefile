# Compute Planner: `make run` serves the app, `make test` runs the suite, `make bench` measures.
# Both set everything up on a fresh clone: virtual environment, locked dependencies, database.
# Neither needs Node.js: the front-end libraries are kept in static/vendor/ (`make vendor`).

PYTHON ?= python3.13
PORT ?= 8000
VENV := .venv
BIN := $(VENV)/bin
UV_VERSION := 0.13.9
export UV_PYTHON_DOWNLOADS := never
export UV_PROJECT_ENVIRONMENT := $(VENV)

.PHONY: run test bench lint format vendor messages clean

$(BIN)/python:
	@command -v $(PYTHON) >/dev/null || { echo "Python 3.13 is needed: install it (pyenv install 3.13) or set PYTHON=/path/to/python3.13"; exit 1; }
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: $(BIN)/python pyproject.toml uv.lock
	$(BIN)/python -m pip install --quiet --disable-pip-version-check uv==$(UV_VERSION)
	$(BIN)/uv sync --frozen --inexact --compile-bytecode --python $(BIN)/python
	touch $@

run: $(VENV)/.installed
	$(BIN)/python manage.py setup_local
	@echo "Compute Planner on http://127.0.0.1:$(PORT)/ (stop with Ctrl+C)"
	$(BIN)/python manage.py runserver 127.0.0.1:$(PORT)

# The suite runs on TEST_WORKERS processes (pytest-xdist), each with its own test database and
# its own keys in a shared Redis cache (tests/conftest.py); TEST_WORKERS=0 runs it in this one.
# Three on two cores: a worker often waits (on a browser, a server it started, PostgreSQL), and
# with two the cores stood idle a third of the time (CPU share 132 %).
TEST_WORKERS ?= 3
test: $(VENV)/.installed
	$(BIN)/python -m pytest -n $(TEST_WORKERS) $(PYTEST_ARGS)

bench: $(VENV)/.installed
	$(BIN)/python tests/bench/run.py
	$(BIN)/python tests/bench/sweep_bench.py
	$(BIN)/python tests/bench/budget_bench.py
	$(BIN)/python tests/bench/budget_bench.py --currency EUR
	$(BIN)/python tests/bench/options_bench.py
	$(BIN)/python tests/bench/options_bench.py --currency EUR
	$(BIN)/python tests/bench/save_bench.py
	$(BIN)/python tests/bench/preview_bench.py
	$(BIN)/python tests/bench/load_bench.py
	$(BIN)/python tests/bench/actuals_bench.py
	$(BIN)/python tests/bench/variance_bench.py

lint: $(VENV)/.installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

# Refresh static/vendor/ from the npm registry at package-lock.json's versions (needs npm).
vendor:
	$(PYTHON) scripts/vendor.py

format: $(VENV)/.installed
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

# After changing a translatable string: extract into locale/*/django.po (sorted by msgid:
# apps/core/management/commands/makemessages.py), translate, then compile
# the .mo files (committed, so that a fresh clone needs no GNU gettext to run).
MESSAGES_IGNORE := --ignore=.venv --ignore=node_modules --ignore=staticfiles --ignore=tests --ignore=data
messages: $(VENV)/.installed
	$(BIN)/python manage.py makemessages --all --no-location --no-obsolete $(MESSAGES_IGNORE)
	$(BIN)/python manage.py compilemessages $(MESSAGES_IGNORE)

clean:
	rm -rf $(VENV) staticfiles
