# Set-up-and-go targets: each (re)creates .venv when missing or older than pyproject.toml.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test explore venv bench lint package clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

venv: $(STAMP)

run: $(STAMP)
	$(PY) -m gui

lint: $(STAMP)
	$(PY) -m ruff check engine gui tests
	$(PY) -m mypy

test: lint
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest -q

# The property tests with fresh random examples (make test draws the same ones each run).
explore: $(STAMP)
	QT_QPA_PLATFORM=offscreen PEBBLEBOX_HYPOTHESIS=explore $(PY) -m pytest -q \
		tests/engine/test_ayu_properties.py tests/engine/test_bug_properties.py \
		tests/engine/test_ahayuta_properties.py tests/engine/test_bug_playout.py

bench: $(STAMP)
	$(PY) -m engine bench

# A one-folder build in dist/pebblebox/: the application and `pebblebox-engine`.
package: $(STAMP)
	$(PY) -m pip install --quiet -e '.[dev,package]'
	$(PY) -m PyInstaller --noconfirm --log-level WARN packaging/pebblebox.spec

clean:
	rm -rf $(VENV) build dist *.egg-info
