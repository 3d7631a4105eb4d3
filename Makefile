# The two commands of the README: `make demo` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint bench bench-large bench-load bench-real install clean messages

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

# Answers on real wikis (issue 22): every bench/real/*.yaml whose vault is in $(REAL_WIKIS)/<wiki>/
# (a checkout of the question file's repo at its commit; its `vault:` folder inside), beside FTS5.
REAL_WIKIS ?= bench/out/wikis
bench-real: $(STAMP)
	$(BIN)/python -m bench.real --wikis $(REAL_WIKIS) --json bench/out/real.json $(REAL_ARGS)
# After changing UI strings: re-extract them and update the Japanese catalog, then translate the
# new (empty) entries in bot/locale/ja/LC_MESSAGES/sakuin.po; tests/bot/test_i18n.py checks it.
messages: $(STAMP)
	mkdir -p .sakuin
	$(BIN)/pybabel extract --no-location --sort-output --width 100 --project sakuin -o .sakuin/sakuin.pot bot
	$(BIN)/pybabel update --no-fuzzy-matching --ignore-obsolete --width 100 -i .sakuin/sakuin.pot -d bot/locale -D sakuin

clean:
	rm -rf $(VENV) .sakuin
