# Two commands matter: `make run` starts the bot, `make test` runs every check.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck pytest demo bench league clean

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

# Computer players against each other (engine only, about 40 minutes): greedy alone on every
# shipped battlefield, then the strong player against greedy ones.
league: $(STAMP)
	$(PY) -m bot league --battlefield small-4 --players 'greedy*4' --games 20 --seed 1
	$(PY) -m bot league --battlefield medium-8 --players 'greedy*8' --games 16 --seed 1
	$(PY) -m bot league --battlefield duel-8 --players 'greedy*2' --games 20 --seed 1
	$(PY) -m bot league --battlefield treasure-3 --players 'greedy*3' --games 21 --seed 1
	$(PY) -m bot league --battlefield fortress-4 --players 'greedy*4' --games 20 --seed 1
	$(PY) -m bot league --battlefield duel-8 --players strong,greedy --games 40 --seed 1
	$(PY) -m bot league --battlefield small-4 --players 'strong,greedy*3' --games 40 --seed 1
	$(PY) -m bot league --battlefield medium-8 --players 'strong,greedy*7' --games 16 --seed 1

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache replay
