# The two commands of the README: `make report` and `make test`. Both install first.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: install test report bench lint golden clean

install: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,cluster]' --config-settings editable_mode=compat
	touch $(STAMP)

test: install
	$(BIN)/python -m pytest -q

report: install
	$(BIN)/sim report

bench: install
	$(BIN)/python scripts/bench.py

lint: install
	$(BIN)/ruff check sim tests scripts

golden: install
	$(BIN)/python scripts/golden.py

clean:
	rm -rf $(VENV) .pytest_cache build *.egg-info
