# Every entry point of the project (`make` alone, or `make help`, lists them). Each target first runs
# scripts/bootstrap.sh, which installs simh and the Python virtual environment when they are missing:
# only what playing needs (pexpect), or with MODE=kiosk aiohttp too, or with MODE=test the test tools,
# or with MODE=bench OpenSpiel (the strength benchmark's opponents; nothing else installs it).

PY      := .venv/bin/python
SETUP   := scripts/bootstrap.sh
BUILD   := build
MODE    ?= play
comma   := ,
.DEFAULT_GOAL := help
# The two tapes, each a whole program for the 4,096-word PDP-1, each one source in several files
# assembled together in order (the first names the tape): the game, and the analysis (the proof).
# The lists are python_bridge/machine/tapes.py's, the ones the Python code builds from (standard
# library only: it answers before the virtual environment exists).
KALAH_SRC := $(shell python3 python_bridge/machine/tapes.py kalah)
PROVE_SRC := $(shell python3 python_bridge/machine/tapes.py prove)
TAPES     := $(BUILD)/kalah.rim $(BUILD)/prove.rim

.PHONY: help setup build web test-web lint test test-screens test-slow play demo prove crosscheck fuzz bench bench-ref bench-contract bench-kiosk first-visit bench-strength bench-asm fuzz-asm compare-asm asm-expected figures pictures kiosk online online-cluster bench-online bench-web soak install-kiosk clean

## help: list the entry points (what `make` alone does)
help:
	@grep -E '^## ' Makefile | sed 's/^## /  make /'

## setup: install simh, .venv and the Python packages (MODE=play: pexpect only; MODE=kiosk: aiohttp too; MODE=cluster: psycopg, PostgreSQL and HAProxy too; MODE=test: pytest, hypothesis, playwright, and axe-core from npm; MODE=bench: open-spiel)
setup:
	@$(SETUP) $(MODE)

## build: assemble both tapes with the project's assembler -> build/kalah.rim (the game), build/prove.rim (the analysis); check them
build: setup $(TAPES)
	@$(call check,kalah,$(KALAH_SRC))
	@$(call check,prove,$(PROVE_SRC))

# macro1 (and so tools.macro) names each source's title on stderr: shown only when assembly fails
assemble = $(PY) -m tools.macro -o $(BUILD) $(1) 2>$(BUILD)/$(2).err || { cat $(BUILD)/$(2).err >&2; exit 1; }
# a tape that fails its own check is punched again from its sources
check = $(PY) -m tools.tape check $(BUILD)/$(1).rim || { \
    echo "build: $(BUILD)/$(1).rim fails its check; punching it again from pdp1_src/"; \
    $(call assemble,$(2),$(1)) && $(PY) -m tools.tape check $(BUILD)/$(1).rim; }

$(BUILD)/kalah.rim: $(KALAH_SRC) $(wildcard tools/*.py tools/macro/*.py tools/papertape/*.py)
	@mkdir -p $(BUILD)
	@$(call assemble,$(KALAH_SRC),kalah)

$(BUILD)/prove.rim: $(PROVE_SRC) $(wildcard tools/*.py tools/macro/*.py tools/papertape/*.py)
	@mkdir -p $(BUILD)
	@$(call assemble,$(PROVE_SRC),prove)

## web: the browser edition -> build/web/, a static folder: SIMH's pdp1 as WebAssembly (Debian's simh 3.8.1 source, fetched once into build/simh/, with web/simh/'s console; Debian's emcc), the page, Pyodide (npm, pinned) and the project's Python
web: MODE = web
web: setup build $(BUILD)/web/pdp1.js
	@$(PY) -m python_bridge.browser.folder $(BUILD)/web

$(BUILD)/web/pdp1.js $(BUILD)/web/pdp1.wasm &: scripts/build-web.sh web/simh/web_console.c web/simh/console.patch
	@scripts/build-web.sh $(BUILD)

## lint: ruff's checks of every Python file (the rules and why in pyproject.toml); make test runs it first
lint: MODE = test
lint: setup
	@$(PY) -m ruff check --quiet .

## test: lint, then the whole suite in JOBS workers (default 5), a test file to a worker, the longest files first (the README's test command; .ci/run calls it)
# More workers than cores: a test often waits on an emulator, a server or a browser.  But every page, server and
# emulator a waiting test holds open burns CPU meanwhile, so more workers also spend more (pytest's time and the
# host's CPU a run, with the waiting files spread among the busy ones: four workers 237 s, 419 CPU-s, both cores
# idle a tenth of it; five 224 s, 417 CPU-s; six 228 s, 449 CPU-s).
# --no-loadscope-reorder: the files in tests/conftest.py's order (its LONG_FILES first), not pytest-xdist's (most tests first).
# Bytecode is written even where the environment says not to (PYTHONDONTWRITEBYTECODE): every worker and
# every server a test starts would otherwise compile the project again, some 30 CPU-seconds a run; and it is
# written first, once (compileall, and pytest's own rewritten test modules by collecting them), where a fresh
# checkout had each of the first processes compile it at once (each worker's collection took 4.1 s, not 1.7 s).
test: MODE = test
test: JOBS ?= 5
test: lint build web
	@PYTHONDONTWRITEBYTECODE= $(PY) -m compileall -q python_bridge tools
	@PYTHONDONTWRITEBYTECODE= $(PY) -m pytest -q --collect-only -p no:cacheprovider >/dev/null || true
	PYTHONDONTWRITEBYTECODE= $(PY) -m pytest -q -n $(JOBS) --dist loadfile --no-loadscope-reorder --durations=15

## test-screens: the kiosk's whole visitor game on the three other screens (1920x1080, 1080x1920, 1024x768; about 4 min)
test-screens: MODE = test
test-screens: build
	$(PY) -m pytest -q -m screens tests/kiosk/test_browser.py

## test-web: many seeded Kalah games on SIMH as WebAssembly beside Debian's pdp1, every output and count compared (a few minutes)
test-web: MODE = test
test-web: build web
	$(PY) -m pytest -q -n 2 -m webgames tests/web/

## test-slow: the long tests left out of make test (the PDP-1's Kalah(6,2) proofs and the like; an hour or more)
test-slow: MODE = test
test-slow: build
	$(PY) -m pytest -q -m slow

## play: a visitor plays the PDP-1 at the terminal (ARGS="--authentic --first pdp-1 --pie-rule ...")
play: build
	$(PY) -m python_bridge play $(ARGS)

## demo: the historical demonstration at 1960 speed: read-in, the PDP-1 against itself, captions (ARGS="--fast --visitor ...")
demo: build
	$(PY) -m python_bridge demo $(ARGS)

## prove: the PDP-1 proves who wins Kalah(6,SEEDS), every memory cycle counted (ARGS="--value --empty-capture --no-cycles --deepen 99 ...")
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

## bench: the PDP-1's figures (instructions and memory cycles a position, true 1960 seconds a move, core used, rates)
bench: build
	$(PY) -m python_bridge bench $(ARGS)

## bench-ref: the reference search against 0.2.0's, side by side: midgame, default level and depths 4, 8; the proof against the readable one
bench-ref: setup
	$(PY) -m python_bridge bench-ref $(ARGS)

## bench-contract: depth each search-contract change buys at the default level's budget (POSITIONS=300 BUDGET=4800)
bench-contract: setup
	$(PY) -m python_bridge bench-contract $(if $(POSITIONS),--positions $(POSITIONS)) $(if $(BUDGET),--budget $(BUDGET))

## bench-kiosk: a visitor's waits at the shipped kiosk settings in Chromium, with a busy neighbour (GAMES=1 a size and speed; ARGS="--speeds fast --sizes quick")
bench-kiosk: GAMES ?= 1
bench-kiosk: MODE = test
bench-kiosk: build
	$(PY) -m python_bridge bench-kiosk --games $(GAMES) $(ARGS)

## first-visit: the kiosk's strengths (gentle, fair, full) against a first-time visitor's model, quick and classic (GAMES=100 each)
first-visit: GAMES ?= 100
first-visit: setup
	$(PY) -m python_bridge first-visit --games $(GAMES) $(ARGS)

## bench-strength: the default level against OpenSpiel's alpha-beta (depths 4, 6, 8) and MCTS (1k, 10k), GAMES games each (ARGS="--opponents ab8 --jobs 2 --seed 3")
bench-strength: GAMES ?= 20
bench-strength: MODE = bench
bench-strength: setup
	$(PY) -m python_bridge strength --games $(GAMES) $(ARGS)

## bench-asm: time macro1 and tools.macro on a long generated source and the Kalah sources
bench-asm: setup
	$(PY) -m tools.macro.bench $(KALAH_SRC)

## figures: measure every figure the docs quote -> docs/figures.md (FIGURES=all adds the long sections, FIGURES=name,name runs those)
# The sections in a browser (pictures, kiosk, web) need the test set-up's Playwright too (web: make web's folder);
# all needs both it and OpenSpiel.
figures: FIGURES ?= default
figures: MODE = $(if $(filter all strength,$(subst $(comma), ,$(FIGURES))),bench,play)
figures: build
	@$(if $(filter all pictures kiosk web,$(subst $(comma), ,$(FIGURES))),$(SETUP) test)
	@$(if $(filter all web,$(subst $(comma), ,$(FIGURES))),$(MAKE) --no-print-directory web)
	$(PY) -m python_bridge figures --sections $(FIGURES)

## pictures: the docs' pictures (docs/pictures/*.png): the kiosk's screen, the online page on a phone and a desktop, a seeded game under way, in Chromium
pictures: MODE = test
pictures: build
	$(PY) -m python_bridge pictures

## fuzz-asm: N random programs (seed SEED) assembled by macro1 and tools.macro must match
fuzz-asm: N ?= 2000
fuzz-asm: SEED ?= 1962
fuzz-asm: MODE = test
fuzz-asm: setup
	MACRO_FUZZ_COUNT=$(N) MACRO_FUZZ_SEED=$(SEED) MACRO_FUZZ_SAVE=$(BUILD)/fuzz-asm \
	    $(PY) -m pytest -q tests/tools/test_macro_generative.py

## compare-asm: run macro1 and tools.macro on the test corpus and the Kalah program, or on every .mac file under DIR (OPTS="-r" etc.)
compare-asm: setup
	$(PY) tests/tools/compare_assemblers.py $(if $(DIR),"$(DIR)") --options="$(OPTS)"

## asm-expected: keep macro1's outputs for the test corpus (what make test compares with), if RUNS runs of it agree
asm-expected: RUNS ?= 3
asm-expected: setup
	$(PY) tests/tools/asm_expected.py --runs $(RUNS)

## kiosk: the museum kiosk's server on 127.0.0.1 (CONFIG=kiosk.sample.toml); open it in Chromium's kiosk mode (docs/kiosk.md)
kiosk: CONFIG ?= kiosk.sample.toml
kiosk: MODE = kiosk
kiosk: build
	$(PY) -m python_bridge kiosk --config $(CONFIG)

## online: the PDP-1 online on 127.0.0.1:8361 (ARGS="--max-games 2 --pace fast ..."; docs/online.md)
online: MODE = kiosk
online: build
	$(PY) -m python_bridge online $(ARGS)

## online-cluster: the online exhibit past one host, on this machine: PostgreSQL, SERVERS=3 servers, HAProxy on 8362
online-cluster: MODE = cluster
online-cluster: SERVERS ?= 3
online-cluster: build
	$(PY) -m python_bridge online-cluster --servers $(SERVERS) $(ARGS)

## bench-web: the browser edition's figures: in Chromium, first question, bytes, CPU while thinking, replies, the 1960 pace; and a server of the browser edition receiving the records of GAMES finished games (default 1000), on one core
bench-web: GAMES ?= 1000
bench-web: MODE = test
bench-web: web
	$(PY) -m python_bridge bench-web --games $(GAMES) $(ARGS)

## bench-online: the online exhibit under simulated visitors: its three target rows, or with STEPS=10,25,50,100,200 PACE=1960|fast ARGS=... a ramp
bench-online: MODE = test
bench-online: build
	$(PY) -m python_bridge bench-online $(if $(STEPS)$(PACE)$(ARGS),,--targets) $(if $(STEPS),--steps $(STEPS)) $(if $(PACE),--pace $(PACE)) $(ARGS)

## install-kiosk: as root, the kiosk for a gallery: /opt/kalah-kiosk (no test tools), /etc/kalah-kiosk, the server and its screen (cage running Chromium) as systemd units (docs/kiosk.md)
install-kiosk:
	@deploy/install.sh

## soak: attract games on an unattended kiosk until GAMES are played or DURATION (90s, 30m, 2h) has passed, pdp1 killed every KILL_EVERY games, the server every RESTART_EVERY (0: never); growth fails
soak: GAMES ?=
soak: DURATION ?=
soak: KILL_EVERY ?= 5
soak: MODE = kiosk
soak: RESTART_EVERY ?= 0
soak: build
	$(PY) -m python_bridge soak $(if $(GAMES),--games $(GAMES)) $(if $(DURATION),--duration $(DURATION)) --kill-every $(KILL_EVERY) --restart-every $(RESTART_EVERY) $(ARGS)

## clean: remove the build (build/) and pytest's cache; records/ and .venv stay
clean:
	rm -rf $(BUILD) .pytest_cache
