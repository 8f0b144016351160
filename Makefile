# pbem: `make demo` and `make test` work on a fresh machine with Python and make.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint bench wheel clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/python -m pbem.demo

test: $(STAMP)
	$(BIN)/python -m pytest -n 2 --dist worksteal

lint: $(STAMP)
	$(BIN)/ruff check pbem tests bench
	$(BIN)/mypy pbem tests

bench: $(STAMP)
	$(BIN)/python -m bench

# the wheel an operator installs (docs/operators-guide.md): dist/pbem-VERSION-py3-none-any.whl
wheel: $(STAMP)
	$(BIN)/python -m pip wheel -q --no-deps -w dist .

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build dist
