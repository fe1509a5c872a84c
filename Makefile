# Two commands matter: `make run` starts the bot, `make test` runs every check.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck pytest demo bench clean

$(STAMP): pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(PY) -m bot run

test: lint typecheck pytest

lint: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .

typecheck: $(STAMP)
	$(PY) -m mypy

pytest: $(STAMP)
	$(PY) -m pytest

demo: $(STAMP)
	$(PY) -m bot simulate --battlefield medium-8 --seed 1 --out replay/

bench: $(STAMP)
	$(PY) benchmarks/engine_bench.py

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache replay
