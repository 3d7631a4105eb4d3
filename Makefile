# The two commands of the README: `make demo` (the app alone) and `make test` (the app and the
# test tools: pytest, ruff, psutil, the `dev` extra of pyproject.toml).
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DEV_STAMP := $(VENV)/.installed-dev

.PHONY: demo test lint bench bench-large bench-load bench-real install clean messages picture

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e .
	touch $(STAMP)

$(DEV_STAMP): $(STAMP)
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(DEV_STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(BIN)/sakuin index
	$(BIN)/sakuin ask "/entity ByteDance"

lint: $(DEV_STAMP)
	$(BIN)/ruff check .

# Three workers on CI's two cores: most tests wait on a server, a subprocess or a timer.
# A module's tests share a worker (--dist loadfile); each worker starts its own PostgreSQL.
test: lint
	$(BIN)/pytest -n 3 --dist loadfile

bench: $(DEV_STAMP)
	$(BIN)/python -m bench $(BENCH_ARGS)

# 100,000 pages: its own JSON (bench/out/results-large.json) and block in docs/benchmarks.md.
bench-large: $(DEV_STAMP)
	$(BIN)/python -m bench --pages 100000 $(BENCH_ARGS)

# `sakuin serve` under a burst of signed requests (small by default; see docs/benchmarks.md).
bench-load: $(DEV_STAMP)
	$(BIN)/python -m bench.load $(LOAD_ARGS)

# Answers on real wikis (issue 22): every bench/real/*.yaml whose vault is in $(REAL_WIKIS)/<wiki>/
# (a checkout of the question file's repo at its commit; its `vault:` folder inside), beside FTS5.
# `python -m bench.real.checkout --mirrors DIR` writes them there from local git copies.
REAL_WIKIS ?= bench/out/wikis
bench-real: $(DEV_STAMP)
	$(BIN)/python -m bench.real --wikis $(REAL_WIKIS) --json bench/out/real.json $(REAL_ARGS)
# After changing UI strings: re-extract them and update the Japanese catalog, then translate the
# new (empty) entries in bot/locale/ja/LC_MESSAGES/sakuin.po; tests/bot/test_i18n.py checks it.
messages: $(STAMP)
	mkdir -p .sakuin
	$(BIN)/pybabel extract --no-location --sort-output --width 100 --project sakuin -o .sakuin/sakuin.pot bot
	$(BIN)/pybabel update --no-fuzzy-matching --ignore-obsolete --width 100 -i .sakuin/sakuin.pot -d bot/locale -D sakuin

# The README's picture of an answer in Slack, drawn from the payload the composer makes on the
# example vault; tests/test_picture.py fails while the committed docs/answer.svg is stale.
picture: $(STAMP)
	$(BIN)/python -m docs.picture

clean:
	rm -rf $(VENV) .sakuin
