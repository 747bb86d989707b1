# The two commands of the README: `make report` and `make test`. Both install first.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: install test report bench first-hour lint golden clean

# install also compiles every engine into numba's cache (once per machine and version of the sources;
# a check of three marker files when already done), so the first command after it is fast
install: $(STAMP)
	$(BIN)/python -m sim.core.warm

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,cluster]' --config-settings editable_mode=compat
	touch $(STAMP)

# one test worker per core (pytest-xdist), each test file in one worker except the long tests, which go
# first, one by one; tests/conftest.py compiles the engines, search bots and analyses before (every game
# at once, in one go rather than after `install`'s engines-only step)
TEST := $(BIN)/python -m pytest -q -n auto --dist loadfile

test: $(STAMP)
	$(TEST)

report: install
	$(BIN)/sim report

bench: install
	$(BIN)/python scripts/bench.py

first-hour:
	$(PYTHON) scripts/first_hour.py

lint: install
	$(BIN)/ruff check sim tests scripts

golden: install
	$(BIN)/python scripts/golden.py

clean:
	rm -rf $(VENV) .pytest_cache build *.egg-info
