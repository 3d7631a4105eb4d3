# The two commands of the README: `make demo` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint bench bench-large bench-load install clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(BIN)/sakuin index
	$(BIN)/sakuin ask "/entity ByteDance"

lint: $(STAMP)
	$(BIN)/ruff check .

test: lint
	$(BIN)/pytest

bench: $(STAMP)
	$(BIN)/python -m bench $(BENCH_ARGS)

# 100,000 pages: its own JSON (bench/out/results-large.json) and block in docs/benchmarks.md.
bench-large: $(STAMP)
	$(BIN)/python -m bench --pages 100000 $(BENCH_ARGS)

# `sakuin serve` under a burst of signed requests (small by default; see docs/benchmarks.md).
bench-load: $(STAMP)
	$(BIN)/python -m bench.load $(LOAD_ARGS)

clean:
	rm -rf $(VENV) .sakuin
