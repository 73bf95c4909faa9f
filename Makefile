# PCM Planner: `make run` serves the app, `make test` runs the whole suite.
# Both bootstrap .venv (python3 -m venv + pip install -e ".[test]") when missing or stale.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
PORT    ?= 8501
ADDRESS ?= 127.0.0.1
CHROMIUM ?= /usr/bin/chromium
export NUMBA_CACHE_DIR ?= $(CURDIR)/.numba_cache
# `make test` runs the suite in this many pytest-xdist worker processes (one per core of the 2-core machine).
# Each test file runs whole in one worker (--dist loadfile): module- and session-scoped fixtures (the ledger's
# claim run, the browser tests' server) are built once, as in a serial run. TEST_WORKERS=0 runs serially.
TEST_WORKERS ?= 2

.PHONY: run test test-fast lint bench fuzz load validate venv clean warm

venv: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[test]"
	touch $(STAMP)

# Runs every page once after an install: numba kernels compiled into $(NUMBA_CACHE_DIR) and slow
# bundled-data results cached there, so a fresh server answers its first visit fast (issue 18).
WARM := $(NUMBA_CACHE_DIR)/.warm
$(WARM): $(STAMP)
	$(BIN)/python -m app.warmup
	touch $(WARM)

warm: $(STAMP)
	$(BIN)/python -m app.warmup
	touch $(WARM)

run: $(STAMP) $(WARM)
	$(BIN)/streamlit run app/main.py --server.port $(PORT) --server.address $(ADDRESS)

$(CHROMIUM):
	@echo "Installing Debian chromium for the browser tests"
	(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
	  || (sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null)

test: $(STAMP) $(CHROMIUM)
	$(BIN)/ruff check models app cli reporting tests bench
	$(BIN)/python -m pytest -p no:cacheprovider -n $(TEST_WORKERS) --dist loadfile

test-fast: $(STAMP)
	$(BIN)/python -m pytest -p no:cacheprovider -m "not browser and not slow" -x -q

lint: $(STAMP)
	$(BIN)/ruff check models app cli reporting tests bench

bench: $(STAMP)
	@for b in bench/bench_*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

# Fuzz campaign over the trace readers (issues 20, 41, 42): 10,000 cases per format, counts and peak RSS, then the
# bombs; after `warm`, so that a bomb's CPU time is its input's cost, not the first compile of a numba kernel.
fuzz: $(STAMP) $(WARM)
	$(BIN)/python bench/fuzz.py

# Load campaign (issue 20): 40 concurrent sessions + 2 Chromium tabs against one server on loopback:
# with 15 s think time (goal: closed-form rerun p95 <= 3 s), then all rerunning at once (goal: RSS <= 2 GB).
load: $(STAMP) $(WARM)
	$(BIN)/python bench/bench_load.py --think-s 15
	$(BIN)/python bench/bench_load.py --think-s 0 --browsers 0

# The validation ledger: runs every claim of the seed papers (about a minute) and writes
# docs/VALIDATION.md, models/validation/ledger.csv (read by the app) and the README summary.
validate: $(STAMP)
	$(BIN)/pcm-planner validate --write

clean:
	rm -rf $(VENV) .numba_cache .pytest_cache
