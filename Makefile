# Every entry point of the project. Each target first runs scripts/bootstrap.sh,
# which installs simh and the Python virtual environment when they are missing.

PY      := .venv/bin/python
SETUP   := scripts/bootstrap.sh
BUILD   := build
# The Kalah program: one source in several files, assembled together in this order.
KALAH_SRC := pdp1_src/kalah.mac pdp1_src/rules.mac pdp1_src/search.mac \
             pdp1_src/diag.mac pdp1_src/typewr.mac pdp1_src/core.mac

.PHONY: setup build test bench-ref clean

setup:
	@$(SETUP)

## build: assemble the PDP-1 program with the project's assembler -> build/kalah.rim, build/kalah.lst
build: setup $(BUILD)/kalah.rim

$(BUILD)/kalah.rim: $(KALAH_SRC) $(wildcard tools/*.py tools/macro/*.py)
	@mkdir -p $(BUILD)
	$(PY) -m tools.macro -o $(BUILD) $(KALAH_SRC)

## test: the whole suite (the README's test command; .ci/run calls it)
test: build
	$(PY) -m pytest -q

## bench-ref: positions per second of the reference search, depths 4 to 8
bench-ref: setup
	$(PY) -m python_bridge.bench_reference

clean:
	rm -rf $(BUILD) .pytest_cache
