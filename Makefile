# Every entry point of the project. Each target first runs scripts/bootstrap.sh,
# which installs simh and the Python virtual environment when they are missing.

PY      := .venv/bin/python
SETUP   := scripts/bootstrap.sh
BUILD   := build
# The Kalah program: one source in several files, assembled together in this order.
KALAH_SRC := pdp1_src/kalah.mac pdp1_src/rules.mac pdp1_src/search.mac \
             pdp1_src/prove.mac pdp1_src/diag.mac pdp1_src/typewr.mac pdp1_src/core.mac

.PHONY: setup build test play demo prove crosscheck fuzz bench bench-ref bench-asm fuzz-asm compare-asm kiosk soak clean

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

## play: a visitor plays the PDP-1 at the terminal (ARGS="--authentic --first pdp-1 --pie-rule ...")
play: build
	$(PY) -m python_bridge play $(ARGS)

## demo: the historical demonstration at 1960 speed: read-in, the PDP-1 against itself, captions (ARGS="--fast --visitor ...")
demo: build
	$(PY) -m python_bridge demo $(ARGS)

## prove: the PDP-1 proves who wins Kalah(6,SEEDS), every memory cycle counted (ARGS="--value --empty-capture ...")
prove: SEEDS ?= 1
prove: build
	$(PY) -m python_bridge prove --pits 6 --seeds $(SEEDS) $(ARGS)

## crosscheck: GAMES games of the PDP-1 against a reference player in all variants, every move checked
crosscheck: GAMES ?= 64
crosscheck: SEED ?= 1
crosscheck: build
	$(PY) -m python_bridge crosscheck --games $(GAMES) --seed $(SEED) --all-variants $(ARGS)

## fuzz: the diagnostic-mode differential fuzz, CASES cases from SEED over JOBS emulators
fuzz: CASES ?= 100000
fuzz: SEED ?= 1
fuzz: JOBS ?= 0
fuzz: build
	$(PY) -m python_bridge fuzz --cases $(CASES) --seed $(SEED) --jobs $(JOBS)

## bench: the PDP-1's figures (instructions a position, 1960 seconds a move, core used, rates)
bench: build
	$(PY) -m python_bridge bench $(ARGS)

## bench-ref: positions per second of the reference search, depths 4 to 8
bench-ref: setup
	$(PY) -m python_bridge.reference.benchmark

## bench-asm: time macro1 and tools.macro on a long generated source and the Kalah sources
bench-asm: setup
	$(PY) -m tools.macro.bench $(KALAH_SRC)

## fuzz-asm: N random programs (seed SEED) assembled by macro1 and tools.macro must match
fuzz-asm: N ?= 2000
fuzz-asm: SEED ?= 1962
fuzz-asm: setup
	MACRO_FUZZ_COUNT=$(N) MACRO_FUZZ_SEED=$(SEED) MACRO_FUZZ_SAVE=$(BUILD)/fuzz-asm \
	    $(PY) -m pytest -q tests/test_macro_generative.py

## compare-asm: compare macro1 and tools.macro on every .mac file under DIR (OPTS="-r" etc.)
compare-asm: setup
	@test -n "$(DIR)" || { echo "usage: make compare-asm DIR=folder [OPTS=-r]"; exit 2; }
	$(PY) tests/tools/compare_assemblers.py "$(DIR)" --options="$(OPTS)"

## kiosk: the museum kiosk's server on 127.0.0.1 (CONFIG=kiosk.sample.toml); open it in Chromium's kiosk mode (README)
kiosk: CONFIG ?= kiosk.sample.toml
kiosk: build
	$(PY) -m python_bridge kiosk --config $(CONFIG)

## soak: GAMES attract-mode games on an unattended kiosk (pdp1 killed every KILL_EVERY games); growth is a failure
soak: GAMES ?= 20
soak: KILL_EVERY ?= 5
soak: build
	$(PY) -m python_bridge soak --games $(GAMES) --kill-every $(KILL_EVERY) $(ARGS)

clean:
	rm -rf $(BUILD) .pytest_cache

## help: list the entry points
help:
	@grep -E '^## ' Makefile | sed 's/^## /  make /'
