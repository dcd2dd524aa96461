#!/usr/bin/env bash
# make install-kiosk: install the kiosk on this machine, as root (docs/kiosk.md).
#
#   the project        -> $PREFIX (default /opt/kalah-kiosk), its .venv (the kiosk's packages only: no
#                         test tools) and build/kalah.rim made there
#   Debian packages    -> simh, python3-venv, and the screen's: Chromium, cage (the Wayland kiosk
#                         compositor), Xwayland (cage starts it), wlr-randr (rotation), Mesa's drivers
#                         (cage draws with the GPU), libpam-systemd (the session's devices from logind),
#                         alsa-utils (the sound card's levels restored at boot; aplay, alsamixer)
#   the configuration  -> $ETC/kiosk.toml (default /etc/kalah-kiosk; kept if it exists), with a new
#                         control token; $ETC/browser.env (the page's address with that token, made
#                         again each time); $ETC/screen.env (rotation; made once, then the operator's)
#   the users          -> $KIOSK_USER runs the server; $SCREEN_USER (home /var/lib/$SCREEN_USER) the screen
#   the units          -> /etc/systemd/system: kalah-kiosk.service (the server) and
#                         kalah-kiosk-screen.service (cage running Chromium on tty7 as $SCREEN_USER),
#                         with its PAM file /etc/pam.d/kalah-kiosk-screen
#   state_dir          -> /var/lib/kalah-kiosk (systemd's StateDirectory), owned by $KIOSK_USER
#
# DESTDIR=folder stages everything under that folder instead (no packages, users, .venv or systemctl):
# the test suite uses it. Running it again updates the project and the units, never the configuration.
set -euo pipefail
SRC="$(cd "$(dirname "$0")/.." && pwd)"
DESTDIR="${DESTDIR:-}"
PREFIX="${PREFIX:-/opt/kalah-kiosk}"
ETC="${ETC:-/etc/kalah-kiosk}"
STATE=/var/lib/kalah-kiosk
UNITS="${UNITS:-/etc/systemd/system}"
KIOSK_USER="${KIOSK_USER:-kalah-kiosk}"
SCREEN_USER="${SCREEN_USER:-kalah-screen}"
# Debian's own Python for the .venv: the services' users must be able to run it (not one in root's home)
export PYTHON="${PYTHON:-/usr/bin/python3}"
SCREEN_PACKAGES=(chromium cage xwayland wlr-randr libgl1-mesa-dri libpam-systemd alsa-utils)
SCREEN_GROUPS=(audio video render input)  # the devices, should logind not hand them over

say() { echo "install-kiosk: $*"; }
if [ -z "$DESTDIR" ] && [ "$(id -u)" -ne 0 ]; then
    echo "install-kiosk: run it as root (sudo make install-kiosk)" >&2
    exit 2
fi

# 1. the project, without what each machine makes for itself (run from $PREFIX itself: nothing to copy)
mkdir -p "$DESTDIR$PREFIX"
if [ "$SRC" != "$(cd "$DESTDIR$PREFIX" && pwd)" ]; then
    tar -C "$SRC" --exclude=./.venv --exclude=./build --exclude=./records --exclude=./artifacts \
        --exclude=./.git --exclude='__pycache__' --exclude='*.egg-info' --exclude=./.pytest_cache \
        --exclude=./.hypothesis -cf - . | tar -C "$DESTDIR$PREFIX" --no-same-owner -xf -
    say "project copied to $DESTDIR$PREFIX"
fi
chmod 755 "$DESTDIR$PREFIX/deploy/kiosk-session.sh"
if [ -z "$DESTDIR" ]; then
    # the tape and its symbol table made here, as root: the server finds /opt read-only (ProtectSystem=strict)
    (cd "$PREFIX" && scripts/bootstrap.sh kiosk "${SCREEN_PACKAGES[@]}" && make build >/dev/null &&
     .venv/bin/python -c 'from python_bridge.machine.kalah_program import ensure_tape; ensure_tape()')
    say "simh, the screen's packages, the Python environment and build/kalah.rim are ready"
    id -u "$KIOSK_USER" >/dev/null 2>&1 || useradd --system --home-dir "$STATE" --shell /usr/sbin/nologin "$KIOSK_USER"
    if ! id -u "$SCREEN_USER" >/dev/null 2>&1; then
        useradd --system --user-group --create-home --home-dir "/var/lib/$SCREEN_USER" \
            --shell /usr/sbin/nologin "$SCREEN_USER"
        say "user $SCREEN_USER made for the screen"
    fi
    for group in "${SCREEN_GROUPS[@]}"; do
        ! getent group "$group" >/dev/null || usermod -a -G "$group" "$SCREEN_USER"
    done
fi

# 2. the configuration: made once, then the operator's
mkdir -p "$DESTDIR$ETC"
config="$DESTDIR$ETC/kiosk.toml"
if [ ! -e "$config" ]; then
    token="$("$PYTHON" -c 'import secrets; print(secrets.token_urlsafe(24))')"
    sed -e "s|^state_dir = .*|state_dir = \"$STATE\"  # the saved game, the counters and the log (systemd's StateDirectory)|" \
        -e "s|^# The Kalah kiosk's configuration: .*|# The Kalah kiosk's configuration, made by make install-kiosk; read at each start of kalah-kiosk.service|" \
        -e "s|^control_token = \"\" .*|control_token = \"$token\"  # the page opened as /?control=this token controls the game (browser.env)|" \
        "$SRC/kiosk.sample.toml" > "$config"
    say "configuration written: $config (a new control token)"
else
    say "configuration kept: $config"
fi
[ -e "$DESTDIR$ETC/screen.env" ] || install -m 644 "$SRC/deploy/screen.env" "$DESTDIR$ETC/screen.env"
read -r port token < <("$PYTHON" - "$config" <<'PY'
import sys, tomllib
data = tomllib.load(open(sys.argv[1], "rb"))
print(data.get("kiosk", {}).get("port", 8360), data.get("operation", {}).get("control_token", "") or "-")
PY
)
url="http://127.0.0.1:$port/"
[ "$token" = "-" ] || url="$url?control=$token"
printf '# made by make install-kiosk from %s: the page the kiosk'"'"'s Chromium opens\nKALAH_KIOSK_URL=%s\n' \
    "$ETC/kiosk.toml" "$url" > "$DESTDIR$ETC/browser.env"
chmod 640 "$config"
chmod 600 "$DESTDIR$ETC/browser.env"  # read by systemd itself, as root
[ -n "$DESTDIR" ] || chgrp "$KIOSK_USER" "$config"

# 3. the units, and the screen session's PAM file
mkdir -p "$DESTDIR$UNITS" "$DESTDIR/etc/pam.d"
for unit in kalah-kiosk.service kalah-kiosk-screen.service; do
    sed -e "s|@PREFIX@|$PREFIX|g" -e "s|@ETC@|$ETC|g" -e "s|@STATE@|$STATE|g" \
        -e "s|@USER@|$KIOSK_USER|g" -e "s|@SCREEN_USER@|$SCREEN_USER|g" \
        "$SRC/deploy/$unit" > "$DESTDIR$UNITS/$unit"
done
install -m 644 "$SRC/deploy/kalah-kiosk-screen.pam" "$DESTDIR/etc/pam.d/kalah-kiosk-screen"
old="$DESTDIR$UNITS/kalah-kiosk-browser.service"  # the screen's unit before cage: Chromium alone on :0
if [ -e "$old" ]; then
    [ -n "$DESTDIR" ] || [ ! -d /run/systemd/system ] || systemctl disable --now kalah-kiosk-browser.service
    rm -f "$old"
    say "the old kalah-kiosk-browser.service removed (kalah-kiosk-screen.service replaces it)"
fi
say "units installed in $DESTDIR$UNITS"
if [ -z "$DESTDIR" ] && [ -d /run/systemd/system ]; then
    systemctl daemon-reload
    systemctl enable --quiet kalah-kiosk.service kalah-kiosk-screen.service
    systemctl restart kalah-kiosk.service
    systemctl restart kalah-kiosk-screen.service  # a new page after an update, and a fresh Chromium
    say "kalah-kiosk.service and kalah-kiosk-screen.service (re)started; the screen is on tty7"
fi
