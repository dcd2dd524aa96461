#!/usr/bin/env bash
# Set up everything the project needs on a fresh Debian machine, idempotently:
#   1. Debian's simh package (/usr/bin/pdp1 and /usr/bin/macro1) when missing;
#   2. a Python virtual environment in .venv with the project's dependencies.
# Called by every Makefile entry point, so `make test` and `make play` work on a clean clone.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
[ -x /usr/bin/pdp1 ] && [ -x /usr/bin/macro1 ] || need_apt+=(simh)
for pkg in "$@"; do
    dpkg -s "$pkg" >/dev/null 2>&1 || need_apt+=("$pkg")
done
if [ ${#need_apt[@]} -gt 0 ]; then
    echo "bootstrap: installing Debian packages: ${need_apt[*]}"
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

PYTHON="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
    echo "bootstrap: creating the virtual environment .venv"
    "$PYTHON" -m venv .venv
fi
stamp=.venv/.installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
    echo "bootstrap: installing Python dependencies"
    .venv/bin/python -m pip install -q --upgrade pip
    .venv/bin/python -m pip install -q -e '.[dev]'
    touch "$stamp"
fi
