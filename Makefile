# sheepfold — every target sets itself up on first use (a .venv, Python packages, Debian packages).
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
SYSTAMP := $(VENV)/.system-packages

.PHONY: play play-terminal test bench setup system clean help

help:
	@echo "make play   - start the sheepfold web app and print its address (first run installs everything into .venv)"
	@echo "make play-terminal - play in the terminal instead"
	@echo "make test   - run the whole test suite"
	@echo "make bench  - run the benchmarks and print their numbers"

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[all]'
	touch $(STAMP)

# Debian packages the browser and PostgreSQL tests need (root on the CI machine).
$(SYSTAMP):
	bash scripts/install-system-packages.sh
	@mkdir -p $(VENV) && touch $(SYSTAMP)

setup: $(STAMP)

system: $(SYSTAMP)

# The web app (SQLite file sheepfold.db by default; DB=postgresql://... to use PostgreSQL).
play: $(STAMP)
	$(VENV)/bin/sheepfold serve --host $(or $(HOST),127.0.0.1) --port $(or $(PORT),8000) --db $(or $(DB),sheepfold.db)

play-terminal: $(STAMP)
	$(VENV)/bin/sheepfold play

test: $(STAMP) $(SYSTAMP)
	$(PY) -m pytest -q

bench: $(STAMP)
	$(PY) bench/run_all.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
