# sheepfold — every target sets itself up on first use (a .venv, Python packages, Debian packages).
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
SYSTAMP := $(VENV)/.system-packages

.PHONY: play cluster play-terminal test test-fast test-random test-order test-release lint format bench dist i18n setup system clean help

help:
	@echo "make play   - start the sheepfold web app and print its address (first run installs everything into .venv)"
	@echo "make cluster - several servers on one PostgreSQL behind haproxy (SERVERS=3, PORT=8000, DB=postgresql://...)"
	@echo "make play-terminal - play in the terminal instead"
	@echo "make test   - run the whole test suite but the release check (derandomized: the same examples every run)"
	@echo "make test-release - install the wheel into a fresh venv with its extras and run the adapters from it"
	@echo "make test-fast - the edit loop: no browser, no PostgreSQL, no slow statistics"
	@echo "make test-random - property tests exploring new random examples (pin what fails with @example)"
	@echo "make test-order - the suite reversed (ORDER=reverse) or shuffled (ORDER=SEED): finds tests that lean on an earlier one"
	@echo "make lint   - ruff (format check + lint) and mypy"
	@echo "make format - let ruff format and fix the code"
	@echo "make bench  - run the benchmarks and print their numbers"
	@echo "make i18n   - extract the texts again (server/locale/messages.pot) and update every language's catalog"
	@echo "make dist   - build the wheel and the sdist into dist/ (pip install dist/sheepfold-*.whl)"

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[all]'
	touch $(STAMP)

# Debian packages the browser and PostgreSQL tests need (root on the CI machine), and axe-core
# (from the npm registry, a pinned version and checksum, into .cache/axe-core/) for the
# accessibility scans; rerun when the script changes.
$(SYSTAMP): scripts/install-system-packages.sh
	bash scripts/install-system-packages.sh
	@mkdir -p $(VENV) && touch $(SYSTAMP)

# the install, then every compiled kernel into numba's cache (two at a time): no later run,
# page or test waits on compilation (without it each compiles what it needs on first use)
setup: $(STAMP)
	$(VENV)/bin/sheepfold warm --jobs $(or $(JOBS),2)

system: $(SYSTAMP)

# The web app (SQLite file sheepfold.db by default; DB=postgresql://... to use PostgreSQL).
play: $(STAMP)
	$(VENV)/bin/sheepfold serve --host $(or $(HOST),127.0.0.1) --port $(or $(PORT),8000) --db $(or $(DB),sheepfold.db)

# Many servers on one PostgreSQL (a temporary one unless DB=postgresql://...) behind haproxy.
cluster: $(STAMP) $(SYSTAMP)
	$(VENV)/bin/sheepfold cluster --servers $(or $(SERVERS),3) --port $(or $(PORT),8000) $(if $(DB),--db $(DB))

play-terminal: $(STAMP)
	$(VENV)/bin/sheepfold play

# The kernels compile first, two at a time, into the tests' own cache folder (tests/conftest.py;
# a hit when they are compiled already), then the tests run, on one pytest-xdist worker per
# core (tests/conftest.py: what the workers share, which tests run apart): none of them
# compiles a kernel again. `pytest -n 0` runs them in one process.
TEST_NUMBA = $${TMPDIR:-/tmp}/sheepfold-tests/numba
test: $(STAMP) $(SYSTAMP)
	NUMBA_CACHE_DIR=$(TEST_NUMBA) $(VENV)/bin/sheepfold warm --jobs 2
	SHEEPFOLD_TEST_WARM=0 $(PY) -m pytest -q -m "not release" -n logical $(PYTEST_ORDER)

# The wheel installed into a fresh venv with the [rl,learn] extras (tests/test_release.py): CI
# runs it after `make test`; minutes cold (it fetches about 330 MB of wheels once).
test-release: $(STAMP)
	$(PY) -m pytest -q -m release

test-fast: $(STAMP)
	$(PY) -m pytest -q -m "not slow and not browser and not postgres"

# Only the property tests (hypothesis marks them) depend on the profile.
test-random: $(STAMP)
	HYPOTHESIS_PROFILE=random $(PY) -m pytest -q -m hypothesis

# The suite in another order than make test's, to find a test that passes only after another
# has run (on CI's workers the tests of a file may be split): ORDER=reverse, or a seed to
# shuffle by. CI runs the usual order.
ORDER ?= reverse
test-order:
	$(MAKE) test PYTEST_ORDER="--order $(ORDER)"

lint: $(STAMP)
	$(VENV)/bin/ruff format --check src tests bench examples
	$(VENV)/bin/ruff check src tests bench examples
	$(VENV)/bin/mypy

format: $(STAMP)
	$(VENV)/bin/ruff format src tests bench examples
	$(VENV)/bin/ruff check --fix src tests bench examples

bench: $(STAMP)
	$(PY) bench/run_all.py

# The release: an sdist, then the wheel built from it (so the sdist is known to be complete),
# in a fresh build environment (pyproject.toml's build-system).
# the texts for people, extracted (babel.cfg); every language's catalog updated from them (the
# new texts empty: to translate); a new language: pybabel init (docs/web.md, "Languages")
LOCALE := src/sheepfold/server/locale
i18n: $(STAMP)
	PYTHONPATH=src $(PY) -m babel.messages.frontend extract -F babel.cfg --no-default-keywords -k Msg --no-location --sort-output --omit-header -o $(LOCALE)/messages.pot .
	$(PY) -m babel.messages.frontend update -i $(LOCALE)/messages.pot -d $(LOCALE) --no-fuzzy-matching

dist: $(STAMP)
	rm -rf dist
	$(PY) -m build --outdir dist .
	@ls -l dist

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
