# Every entry point of the project. Each target first runs scripts/bootstrap.sh,
# which installs simh and the Python virtual environment when they are missing.

PY      := .venv/bin/python
SETUP   := scripts/bootstrap.sh
BUILD   := build

.PHONY: setup test bench-ref clean

setup:
	@$(SETUP)

## test: the whole suite (the README's test command; .ci/run calls it)
test: setup
	$(PY) -m pytest -q

## bench-ref: positions per second of the reference search, depths 4 to 8
bench-ref: setup
	$(PY) -m python_bridge.bench_reference

clean:
	rm -rf $(BUILD) .pytest_cache
