# Two commands matter: `make run` starts the bot, `make test` runs the checks (a few minutes);
# `make test-all` runs every check there is (what CI runs, .ci/run).
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test test-all lint typecheck compiled pytest pytest-slow pytest-pure demo bench \
	league clean

# The project is installed editable and pure (ENGINE_PURE=1 keeps setup.py from compiling):
# `make compiled` builds the compiled engine beside the sources, in engine/_compiled/.
$(STAMP): pyproject.toml setup.py
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	ENGINE_PURE=1 $(PY) -m pip install -q -e '.[dev]'
	touch $(STAMP)

# The engine compiled by mypyc, once per version of engine/*.py (engine/_build.py says when;
# about half a minute on 2 cores). Without a C compiler, or with ENGINE_PURE=1, nothing is
# built and the pure engine runs.
compiled: $(STAMP)
	@mkdir -p build; $(PY) engine/_build.py || $(PY) setup.py -q build_ext --build-lib . >build/mypyc.log 2>&1 \
		|| (cat build/mypyc.log; exit 1)

run: $(STAMP) compiled
	$(PY) -m bot run

# Lint, types and every test but the long real-process and statistical ones (marked `slow`
# or `processes`), on every core (pytest-xdist; `make test WORKERS=0` runs them in one process).
test: lint typecheck pytest

# Everything `make test` runs, then the slow tests, then the engine's tests and scenario files
# again on the pure source: neither build can drift.
test-all: test pytest-slow pytest-pure

lint: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .

typecheck: $(STAMP)
	$(PY) -m mypy

WORKERS ?= auto
QUICK := not slow and not processes
PARALLEL = -n $(WORKERS) --dist worksteal
COMPILED = ENGINE_EXPECTED=$$($(PY) engine/_build.py --expected)

# The tests run with the build the engine loads (compiled where it can be built).
pytest: $(STAMP) compiled
	$(PY) -m engine --version
	$(COMPILED) $(PY) -m pytest $(PARALLEL) -m '$(QUICK)'

pytest-slow: $(STAMP) compiled
	$(COMPILED) $(PY) -m pytest $(PARALLEL) -m 'not ($(QUICK))'

pytest-pure: $(STAMP)
	ENGINE_PURE=1 $(PY) -m engine --version
	ENGINE_PURE=1 ENGINE_EXPECTED=pure $(PY) -m pytest $(PARALLEL) tests/engine

demo: $(STAMP) compiled
	$(PY) -m bot simulate --battlefield medium-8 --seed 1 --out replay/
	$(PY) -m bot simulate --battlefield cyvasse-2 --seed 1 --out replay-variants/ --setup hidden \
		--fortress on --emperor-lost crown --takes by-experience --equal-takes mutual

# The engine benchmark compares both builds and MILA's Diplomacy adjudicator (the bench extra).
bench: $(STAMP) compiled
	ENGINE_PURE=1 $(PY) -m pip install -q -e '.[dev,bench]'
	$(PY) benchmarks/engine_bench.py

# Computer players against each other (engine only, about ten minutes): greedy alone on every
# shipped battlefield, then the strong player against greedy ones, then the variants of RULES.md
# section 10 on the battlefields that show them off.
league: $(STAMP) compiled
	$(PY) -m bot league --battlefield small-4 --players 'greedy*4' --games 20 --seed 1
	$(PY) -m bot league --battlefield medium-8 --players 'greedy*8' --games 16 --seed 1
	$(PY) -m bot league --battlefield duel-8 --players 'greedy*2' --games 20 --seed 1
	$(PY) -m bot league --battlefield treasure-3 --players 'greedy*3' --games 21 --seed 1
	$(PY) -m bot league --battlefield fortress-4 --players 'greedy*4' --games 20 --seed 1
	$(PY) -m bot league --battlefield duel-8 --players strong,greedy --games 40 --seed 1
	$(PY) -m bot league --battlefield small-4 --players 'strong,greedy*3' --games 40 --seed 1
	$(PY) -m bot league --battlefield medium-8 --players 'strong,greedy*7' --games 16 --seed 1
	$(PY) -m bot league --battlefield cyvasse-2 --players 'greedy*2' --games 20 --seed 1 \
		--setup hidden --fortress on --emperor-lost crown --takes by-experience --equal-takes mutual
	$(PY) -m bot league --battlefield monuments-4 --players 'greedy*4' --games 20 --seed 1 \
		--goal monuments --setup hidden
	$(PY) -m bot league --battlefield domains-4 --players 'greedy*4' --games 20 --seed 1 \
		--goal domains:60 --takes by-experience

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache replay build engine/_compiled
