#!/usr/bin/env bash
# Set up what a make target needs on a fresh Debian machine, idempotently, before it runs:
#   scripts/bootstrap.sh [play|kiosk|cluster|web|test|bench] [debian-package ...]
#   1. Debian's packages when a program of theirs is missing: the mode's lines of
#      scripts/debian-packages.txt (play: simh; test: the browser, the kiosk's screen programs and
#      the tools the tests call), python3 and python3-venv (a minimal Debian has no venv), and any
#      package named (make install-kiosk names the screen's: chromium, cage, ...). All at once, up
#      front: no test installs anything. apt-get waits for dpkg's lock instead of failing on it, and
#      reads the package lists again when a package is not found in them.
#   2. a Python virtual environment in .venv with the project and what the mode needs:
#      play  - pexpect and the project (the default: make play, demo, build, crosscheck, ...)
#      kiosk - and aiohttp, the kiosk's web server (make kiosk, make soak, make online)
#      cluster - and psycopg, with Debian's PostgreSQL and HAProxy (make online-cluster)
#      web   - as play, with Debian's emscripten, node and npm, and Pyodide from the npm registry as
#              web/package-lock.json pins it (make web: SIMH's pdp1 as WebAssembly, the browser edition)
#      test  - and pytest, hypothesis, playwright, with all of the above's Debian packages (make test); and
#              axe-core, the accessibility engine the page tests inject, from the npm registry at the version
#              pinned below, into .venv/axe-core (the PyPI wheels that ship one lag behind: axe-playwright-python's
#              is 4.12)
#      bench - and open-spiel, the strength benchmark's opponents (make bench-strength; a large wheel,
#              so no other mode installs it)
# Quiet: one line when something is installed, nothing when all is there; on a failure the
# log of what was tried is shown.  Called by every Makefile entry point.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=play
case "${1:-}" in
    play|kiosk|cluster|web|test|bench) mode=$1; shift ;;
    "") ;;
    *) echo "setup: no such mode '$1' (play, kiosk, cluster, web, test or bench)" >&2; exit 2 ;;
esac
case $mode in
    play)  extras="";        modes="play" ;;
    kiosk) extras="[kiosk]"; modes="play kiosk" ;;
    cluster) extras="[cluster]"; modes="play kiosk cluster" ;;
    web)   extras="";        modes="play web" ;;
    test)  extras="[test]";  modes="play kiosk cluster web test" ;;
    bench) extras="[bench]"; modes="play bench" ;;
esac

log=$(mktemp "${TMPDIR:-/tmp}/kalah-setup.XXXXXX")
trap 'rm -f "$log"' EXIT
failed() {
    echo "setup: $1 failed; what it said:" >&2
    tail -n 30 "$log" >&2
    exit 1
}

PYTHON="${PYTHON:-python3}"
stamp=".venv/.installed-$mode"
need_venv=0
# a venv without pip is one that `python3 -m venv` began without python3-venv: made again
[ -x .venv/bin/python ] && [ -e .venv/bin/pip ] || need_venv=1

need_apt=()
# the mode's packages whose programs are not all there
while read -r line_mode package programs; do
    case " $modes " in *" $line_mode "*) ;; *) continue ;; esac
    for program in $programs; do
        if [ ! -x "$program" ]; then need_apt+=("$package"); break; fi
    done
done < <(grep -v -E '^\s*(#|$)' scripts/debian-packages.txt)
# venv needs ensurepip, which Debian ships apart, in python3-venv (python3 too is missing from a minimal system)
if [ $need_venv -eq 1 ] && ! "$PYTHON" -c 'import ensurepip' >/dev/null 2>&1; then
    command -v "$PYTHON" >/dev/null 2>&1 || need_apt+=(python3)
    need_apt+=(python3-venv)
fi
for pkg in "$@"; do
    dpkg -s "$pkg" >/dev/null 2>&1 || need_apt+=("$pkg")
done
need_pip=$need_venv
{ [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; } && need_pip=1
# test mode: axe-core at this version (tests/exhibit/axe_check.py reads it from .venv/axe-core; a newer one,
# with rules the older did not run, is a change to the tests' verdicts, so it is chosen here and not by npm)
AXE_CORE=4.14.1
axe_dir=.venv/axe-core
need_axe=0
if [ "$mode" = test ] && ! grep -qs "\"version\": \"$AXE_CORE\"" "$axe_dir/node_modules/axe-core/package.json"; then
    need_axe=1
fi
# web: Pyodide from the npm registry into web/node_modules, exactly as web/package-lock.json pins it
need_pyodide=0
pyodide_stamp=web/node_modules/.installed
case " $modes " in *" web "*)
    { [ ! -f "$pyodide_stamp" ] || [ web/package-lock.json -nt "$pyodide_stamp" ]; } && need_pyodide=1 ;;
esac

if [ ${#need_apt[@]} -eq 0 ] && [ $need_venv -eq 0 ] && [ $need_pip -eq 0 ] && [ $need_axe -eq 0 ] &&
   [ $need_pyodide -eq 0 ]; then
    exit 0
fi
what=()
[ ${#need_apt[@]} -gt 0 ] && what+=("Debian packages ${need_apt[*]}")
[ $need_venv -eq 1 ] && what+=(".venv")
[ $need_pip -eq 1 ] && what+=("Python packages for $mode")
[ $need_axe -eq 1 ] && what+=("axe-core $AXE_CORE")
[ $need_pyodide -eq 1 ] && what+=("Pyodide (npm ci in web/)")
echo "setup: installing $(IFS=,; echo "${what[*]}" | sed 's/,/, /g') (once)"

if [ ${#need_apt[@]} -gt 0 ]; then
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null 2>&1 || { echo "setup: installing ${need_apt[*]} needs root or sudo" >&2; exit 1; }
        sudo="sudo"
    fi
    # wait up to 10 minutes for another apt or dpkg (an unattended upgrade) rather than fail on its lock
    apt=($sudo env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 -y -qq)
    install() { "${apt[@]}" install "${need_apt[@]}" >>"$log" 2>&1; }
    # lists that are missing or old (a fresh image) do not know a package: read them again and retry once
    install || { "${apt[@]}" update >>"$log" 2>&1 && install; } || failed "apt-get install ${need_apt[*]}"
fi
if [ $need_venv -eq 1 ]; then
    "$PYTHON" -m venv .venv >"$log" 2>&1 || failed "$PYTHON -m venv .venv"
fi
if [ $need_pip -eq 1 ]; then
    { .venv/bin/python -m pip install -q --disable-pip-version-check --upgrade pip &&
      .venv/bin/python -m pip install -q --disable-pip-version-check -e ".$extras"; } \
        >"$log" 2>&1 || failed "pip install -e .$extras"
    touch "$stamp"
    # a fuller mode includes the smaller ones
    for included in $modes; do touch ".venv/.installed-$included"; done
fi
if [ $need_axe -eq 1 ]; then
    # a folder of its own with no package.json above it: npm installs there and saves no manifest in the project
    mkdir -p "$axe_dir"
    npm install --prefix "$axe_dir" --no-save --no-package-lock --no-audit --no-fund --ignore-scripts \
        "axe-core@$AXE_CORE" >"$log" 2>&1 || failed "npm install axe-core@$AXE_CORE"
fi
if [ $need_pyodide -eq 1 ]; then
    (cd web && npm ci --no-audit --no-fund --loglevel=error) >"$log" 2>&1 || failed "npm ci in web/"
    touch "$pyodide_stamp"
fi
exit 0
