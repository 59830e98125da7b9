# sheepfold — every target sets itself up on first use (a .venv, Python packages, Debian packages).
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
SYSTAMP := $(VENV)/.system-packages

.PHONY: play test bench setup system clean help

help:
	@echo "make play   - start sheepfold (first run installs everything into .venv)"
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

play: $(STAMP)
	$(VENV)/bin/sheepfold play

test: $(STAMP) $(SYSTAMP)
	$(PY) -m pytest -q

bench: $(STAMP)
	$(PY) bench/run_all.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
