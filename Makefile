# One entry point for everything: each target creates the environment when it is missing.
VENV   := .venv
PY     := $(VENV)/bin/python
CGSIM  := $(VENV)/bin/cgsim
STAMP  := $(VENV)/.installed
GOLDEN_BOTS := random

.PHONY: run test lint typecheck unit fuzz bench bench-compare bench-loop bench-memory golden strength check-records matrix clean

# The engines' modules (every package under cgsim/games is compiled) and the bots' hot
# modules, compiled with mypyc (setup.py, cgsim/games/compiled.py): the install builds
# them (a few minutes); editing one of their sources builds them again.
# CGSIM_PURE_PYTHON=1 skips compiling: the same results, several times slower.
COMPILED := $(VENV)/.compiled
ENGINE_SOURCES := $(wildcard cgsim/games/*/*.py) \
	bots/__init__.py bots/evaluation.py bots/quick_eval.py bots/turn_model.py bots/kitchen_policy.py bots/kitchen_worlds.py \
	cgsim/games/compiled.py setup.py

# The dependencies first (a pure-Python install), then the compiled engines: mypyc
# type-checks the modules it compiles against the installed dependencies.
$(STAMP): pyproject.toml setup.py
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet 'setuptools>=70.1' 'mypy>=2.4'
	CGSIM_PURE_PYTHON=1 $(PY) -m pip install --quiet --no-build-isolation -e '.[dev]'
	$(PY) setup.py --quiet build_ext --inplace
	touch $(STAMP) $(COMPILED)

# (Skipped when the install has just built them: it touches the stamp after the sources.)
$(COMPILED): $(ENGINE_SOURCES) | $(STAMP)
	if [ ! -e $@ ] || [ -n "$$(find $(ENGINE_SOURCES) -newer $@)" ]; then \
		$(PY) setup.py --quiet build_ext --inplace && touch $@; fi

run: $(COMPILED)
	$(CGSIM) run configs/default.toml

test: lint typecheck unit

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

typecheck: $(STAMP)
	$(VENV)/bin/mypy

unit: $(COMPILED)
	$(PY) -m pytest -n 2

# The fuzz properties at length (make test runs a few examples of each): malformed records
# of both games fed to cgsim check and replay, then damaged results directories fed to
# report, balance, compare, regress and run, then random bytes and TOML as configs and
# component files: exit 0, 1 or 2 with one stderr line, never a traceback. FUZZ_EXAMPLES
# sets the examples per record and file property.
fuzz: $(COMPILED)
	HYPOTHESIS_PROFILE=fuzz $(PY) -m pytest -n 2 tests/test_record_fuzz.py \
		-k "not console" --hypothesis-show-statistics
	HYPOTHESIS_PROFILE=fuzz $(PY) -m pytest -n 2 -m fuzz tests/test_results_reader.py
	HYPOTHESIS_PROFILE=fuzz $(PY) -m pytest -n 2 tests/test_input_properties.py \
		-k "random" --hypothesis-show-statistics

# Speed figures of each game: Cottage Garden, then Kitchen Garden.
bench: $(COMPILED)
	$(CGSIM) bench
	$(CGSIM) bench --game kitchen-garden

# The lab beside the product (benchmarks/, not in the wheel). bench-compare times the build
# of BASELINE (a commit of this clone's history; by default the last one before the compiled
# engines and the record-free match loop) beside this one, alternating: the before and after
# figures. Each baseline is installed once into .bench-baseline/<commit>: name a commit, not
# a branch. bench-loop prints this build's match-loop cost over the bare engine.
BASELINE     := 43f4d9f
BASELINE_DIR := .bench-baseline/$(BASELINE)

$(BASELINE_DIR)/.venv/.installed:
	rm -rf $(BASELINE_DIR) && mkdir -p $(BASELINE_DIR)
	git archive $(BASELINE) | tar -x -C $(BASELINE_DIR)
	$(MAKE) -C $(BASELINE_DIR) .venv/.installed

bench-compare: $(COMPILED) $(BASELINE_DIR)/.venv/.installed
	$(PY) -m benchmarks.compare $(BASELINE_DIR)
	$(PY) -m benchmarks.compare $(BASELINE_DIR) --game kitchen-garden

bench-loop: $(COMPILED)
	$(PY) -m benchmarks.loop
	$(PY) -m benchmarks.loop --game kitchen-garden

# Peak memory of a 100,000-game run (parent and workers).
bench-memory: $(COMPILED)
	$(CGSIM) bench --games 50 --no-parallel --memory-games 100000

golden: $(COMPILED)
	$(CGSIM) golden record --out tests/golden --games 3 --bots $(GOLDEN_BOTS)
	$(CGSIM) golden record --out tests/golden-kitchen --games 2 --bots random,kitchen-greedy --game kitchen-garden
	$(CGSIM) golden playthrough --out tests/playthroughs

# The bot ladder of each game: Cottage Garden, then Kitchen Garden (no solo game).
strength: $(COMPILED)
	$(CGSIM) strength
	$(CGSIM) strength --game kitchen-garden --workers 2 --seed 0

# The compatibility matrix (docs/compatibility.md): every bot in every declared setup of
# every game it plays, isolated or not, compiled and pure Python, local pool and Dask, with
# the tests' toy game and plugin bot; a table of the cells, pass or fail. make test plays
# an all-pairs slice of it (tests/test_matrix.py).
matrix: $(COMPILED)
	PYTHONPATH=tests:tests/plugin_site $(CGSIM) matrix --register toy=toygame:GAME

clean:
	rm -rf $(VENV) $(BASELINE_DIR) .mypy_cache .pytest_cache .ruff_cache .hypothesis build cgsim/games/compiled.json
	find cgsim -name '*.so' -delete

# Play 12,000 random Cottage Garden games over every player count, the solo game and the
# children's variant, and 3,000 Kitchen Garden games of random and greedy seats over 2-4
# players; keep their records, and check every event of every record against its game's
# rules (one command for both games: each record's format picks its checker).
check-records: $(COMPILED)
	for config in configs/selfcheck/*.toml; do \
		$(CGSIM) run $$config --out results --no-report || exit 1; \
	done
	$(CGSIM) check results/selfcheck-*/records/*.jsonl.zst --quiet
