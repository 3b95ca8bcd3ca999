# The two commands a newcomer needs: `make run` and `make test`.
VENV   := .venv
PYTHON := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: run test lint bench clean system-packages node-tools

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PYTHON) -m pip install --quiet --upgrade pip
	$(PYTHON) -m pip install --quiet -e '.[all,dev]'
	touch $(STAMP)

# The conquest show on http://127.0.0.1:8000 with a demo season; prints the admin token.
# The season is kept between runs; `make run NEW=1` starts a new one.
run: $(STAMP)
	$(PYTHON) -m fairfight.web.conquest.demo_season .run $(if $(NEW),--new)

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy

system-packages:
	@bash tools/system-packages.sh

# axe-core (accessibility checks of the pages) and tlock-js (drand timelock interoperability),
# from npm at the versions package-lock.json pins.
node-tools: system-packages
	@bash tools/node-tools.sh

# The suite runs on TEST_WORKERS processes (pytest-xdist), a test file to a process, so a
# file's shared server or browser starts once; `make test TEST_WORKERS=0` runs it in one.
# Three on two cores: a good part of the suite waits on browsers, servers and child
# processes, and a third worker uses that time. Bytecode is written even where the shell
# asks for none (PYTHONDONTWRITEBYTECODE), so the many servers and commands the suite starts
# compile the package once instead of at every start.
# The lint (ruff and mypy, about a minute of one core on a fresh clone) runs beside the
# tests rather than before them, its output printed once the tests end; either failing
# fails `make test`. While it starts, the numba kernels are compiled into their cache once
# (about 40 s of one core on a fresh clone, nothing after): otherwise the first test of
# each worker to reach a kernel compiles it, two or three workers at once.
TEST_WORKERS ?= 3
test: $(STAMP) system-packages node-tools
	@lint_log=$$(mktemp); \
	$(MAKE) --no-print-directory lint > "$$lint_log" 2>&1 & lint=$$!; \
	trap 'kill $$lint 2>/dev/null; rm -f "$$lint_log"; exit 130' INT TERM; \
	env -u PYTHONDONTWRITEBYTECODE $(PYTHON) -m fairfight.compile_kernels; \
	env -u PYTHONDONTWRITEBYTECODE $(VENV)/bin/pytest \
		$(if $(filter-out 0,$(TEST_WORKERS)),-n $(TEST_WORKERS) --dist loadfile); tests=$$?; \
	wait $$lint; linted=$$?; echo "== lint (ruff, mypy)"; cat "$$lint_log"; rm -f "$$lint_log"; \
	[ $$linted -eq 0 ] || echo "make test: the lint failed (above)"; \
	[ $$tests -eq 0 ] && [ $$linted -eq 0 ]

bench: $(STAMP)
	$(PYTHON) -m bench

clean:
	rm -rf $(VENV) node_modules .pytest_cache .mypy_cache .ruff_cache .hypothesis
