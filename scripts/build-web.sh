#!/usr/bin/env bash
# Build SIMH's PDP-1 as WebAssembly (make web): build/web/pdp1.js and build/web/pdp1.wasm.
#   scripts/build-web.sh BUILD_DIR
# 1. Debian's simh 3.8.1 source, fetched once with apt-get source from Debian bookworm main (a
#    sources list and package lists of its own, so the host's apt set-up is neither needed nor
#    touched) and kept in BUILD_DIR/simh/; only the .orig tarball is used, checked against the
#    checksum below (Debian's .diff.gz touches nothing the pdp1 is built from, and may answer 404).
# 2. Unpacked afresh, web/simh/console.patch applied (sim_console.c leaves its terminal routines to
#    web/simh/web_console.c under Emscripten), and PDP1/*.c scp.c sim_*.c compiled with Debian's emcc
#    into one module that JavaScript instances once per machine (web/machine.mjs).
# Quiet: nothing is printed unless a step fails, when its log is shown.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
SIMH=simh_3.8.1.orig.tar.gz
SHA256=64ef4c4f19125cced9e47913d732ed34d9ca72e83e33dc8ca97c40cf2f081a6f
SUITE="deb-src http://deb.debian.org/debian bookworm main"
cache=$(realpath -m "$build/simh")
out=$(realpath -m "$build/web")
log=$(mktemp "${TMPDIR:-/tmp}/kalah-web.XXXXXX")
trap 'rm -f "$log"' EXIT
failed() {
    echo "web: $1 failed; what it said:" >&2
    tail -n 30 "$log" >&2
    exit 1
}

if [ ! -f "$cache/$SIMH" ]; then
    command -v apt-get >/dev/null || { echo "web: fetching SIMH's source needs Debian's apt-get" >&2; exit 1; }
    mkdir -p "$cache/lists/partial"
    echo "$SUITE" >"$cache/sources.list"
    apt=(apt-get -qq -o "Dir::Etc::SourceList=$cache/sources.list" -o Dir::Etc::SourceParts=/dev/null
         -o "Dir::State::Lists=$cache/lists")
    "${apt[@]}" update >>"$log" 2>&1 || failed "apt-get update (Debian bookworm's source list)"
    # the .diff.gz may be missing from the mirror: only the .orig tarball counts
    (cd "$cache" && "${apt[@]}" source --download-only simh=3.8.1-6.1) >>"$log" 2>&1 || true
    [ -f "$cache/$SIMH" ] || failed "apt-get source --download-only simh"
fi
echo "$SHA256  $cache/$SIMH" | sha256sum -c --quiet >>"$log" 2>&1 || {
    rm -f "$cache/$SIMH"; failed "the checksum of $SIMH (removed; the next make web fetches it again)"; }

src=$out/src
rm -rf "$src" && mkdir -p "$src"
tar -xzf "$cache/$SIMH" -C "$src" --strip-components=1 simh-3.8.1/PDP1 \
    $(tar -tzf "$cache/$SIMH" | grep -E '^simh-3.8.1/(scp|sim_[a-z]+)\.[ch]$') >>"$log" 2>&1 || failed "unpacking $SIMH"
patch -s -d "$src" -p1 --binary <"$PWD/web/simh/console.patch" >>"$log" 2>&1 || failed "web/simh/console.patch"
cp web/simh/web_console.c "$src/"

exports=_web_init,_web_command,_web_output,_web_output_length,_web_budget_spent,_web_run_end,_web_pc,_web_keys,_web_keys_waiting
# No -fcommon (wasm-ld then misses rname, dcs_flg...); synchronous compilation, so that node >= 18 does
# not fetch() a file path and a Worker has its machine at once; main renamed: web_init runs it once.
(cd "$src" && NODE_PATH=/usr/share/nodejs emcc -std=c99 -U__STRICT_ANSI__ -O2 -D_GNU_SOURCE -Dmain=simh_main \
    -w -I. -IPDP1 PDP1/*.c scp.c sim_*.c web_console.c -o pdp1.js \
    -sMODULARIZE=1 -sEXPORT_NAME=createPdp1 -sWASM_ASYNC_COMPILATION=0 -sALLOW_MEMORY_GROWTH=1 \
    -sFORCE_FILESYSTEM=1 -sENVIRONMENT=node,worker,web -sEXPORTED_FUNCTIONS=$exports \
    -sEXPORTED_RUNTIME_METHODS=FS,ccall,HEAPU8) >>"$log" 2>&1 || failed "emcc"
mv "$src/pdp1.js" "$src/pdp1.wasm" "$out/"
rm -rf "$src"
