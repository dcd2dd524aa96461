#!/usr/bin/env bash
# make install-kiosk: install the kiosk on this machine, as root (docs/kiosk.md, "A gallery install, step by step").
#
#   the project        -> $PREFIX (default /opt/kalah-kiosk), its .venv and build/kalah.rim made there
#   the configuration  -> $ETC/kiosk.toml (default /etc/kalah-kiosk; kept if it exists), with a new
#                         control token, and $ETC/browser.env (the page's address with that token)
#   the two units      -> /etc/systemd/system: kalah-kiosk.service (the server) and
#                         kalah-kiosk-browser.service (Chromium on display :0 as $DISPLAY_USER)
#   state_dir          -> /var/lib/kalah-kiosk (systemd's StateDirectory), owned by $KIOSK_USER
#
# DESTDIR=folder stages everything under that folder instead (no users, no systemctl, no .venv):
# the test suite uses it. Running it again updates the project and the units, never the configuration.
set -euo pipefail
SRC="$(cd "$(dirname "$0")/.." && pwd)"
DESTDIR="${DESTDIR:-}"
PREFIX="${PREFIX:-/opt/kalah-kiosk}"
ETC="${ETC:-/etc/kalah-kiosk}"
STATE=/var/lib/kalah-kiosk
UNITS="${UNITS:-/etc/systemd/system}"
KIOSK_USER="${KIOSK_USER:-kalah-kiosk}"
DISPLAY_USER="${DISPLAY_USER:-kiosk}"

say() { echo "install-kiosk: $*"; }
if [ -z "$DESTDIR" ] && [ "$(id -u)" -ne 0 ]; then
    echo "install-kiosk: run it as root (sudo make install-kiosk)" >&2
    exit 2
fi

# 1. the project, without what each machine makes for itself
mkdir -p "$DESTDIR$PREFIX"
tar -C "$SRC" --exclude=./.venv --exclude=./build --exclude=./records --exclude=./artifacts \
    --exclude=./.git --exclude='__pycache__' --exclude='*.egg-info' --exclude=./.pytest_cache \
    --exclude=./.hypothesis -cf - . | tar -C "$DESTDIR$PREFIX" -xf -
chmod 755 "$DESTDIR$PREFIX/deploy/kiosk-session.sh"
say "project copied to $DESTDIR$PREFIX"
if [ -z "$DESTDIR" ]; then
    (cd "$PREFIX" && scripts/bootstrap.sh chromium && make build >/dev/null)
    say "simh, chromium, the Python environment and build/kalah.rim are ready"
    id -u "$KIOSK_USER" >/dev/null 2>&1 || useradd --system --home-dir "$STATE" --shell /usr/sbin/nologin "$KIOSK_USER"
    id -u "$DISPLAY_USER" >/dev/null 2>&1 || say "warning: no user $DISPLAY_USER for the screen (DISPLAY_USER=...)"
fi

# 2. the configuration: made once, then the operator's
mkdir -p "$DESTDIR$ETC"
config="$DESTDIR$ETC/kiosk.toml"
if [ ! -e "$config" ]; then
    token="$(python3 -c 'import secrets; print(secrets.token_urlsafe(24))')"
    sed -e "s|^state_dir = .*|state_dir = \"$STATE\"  # the saved game, the counters and the log (systemd's StateDirectory)|" \
        -e "s|^# The Kalah kiosk's configuration: .*|# The Kalah kiosk's configuration, made by make install-kiosk; read at each start of kalah-kiosk.service|" \
        -e "s|^control_token = \"\" .*|control_token = \"$token\"  # the page opened as /?control=this token controls the game (browser.env)|" \
        "$SRC/kiosk.sample.toml" > "$config"
    say "configuration written: $config (a new control token)"
else
    say "configuration kept: $config"
fi
read -r port token < <(python3 - "$config" <<'PY'
import sys, tomllib
data = tomllib.load(open(sys.argv[1], "rb"))
print(data.get("kiosk", {}).get("port", 8360), data.get("operation", {}).get("control_token", "") or "-")
PY
)
url="http://127.0.0.1:$port/"
[ "$token" = "-" ] || url="$url?control=$token"
printf '# made by make install-kiosk from %s: the page the kiosk'"'"'s Chromium opens\nKALAH_KIOSK_URL=%s\n' \
    "$ETC/kiosk.toml" "$url" > "$DESTDIR$ETC/browser.env"
chmod 640 "$config" "$DESTDIR$ETC/browser.env"
if [ -z "$DESTDIR" ]; then
    chgrp "$KIOSK_USER" "$config"
    ! id -u "$DISPLAY_USER" >/dev/null 2>&1 || chgrp "$DISPLAY_USER" "$DESTDIR$ETC/browser.env"
fi

# 3. the units
mkdir -p "$DESTDIR$UNITS"
for unit in kalah-kiosk.service kalah-kiosk-browser.service; do
    sed -e "s|@PREFIX@|$PREFIX|g" -e "s|@ETC@|$ETC|g" -e "s|@STATE@|$STATE|g" \
        -e "s|@USER@|$KIOSK_USER|g" -e "s|@DISPLAY_USER@|$DISPLAY_USER|g" \
        "$SRC/deploy/$unit" > "$DESTDIR$UNITS/$unit"
done
say "units installed in $DESTDIR$UNITS"
if [ -z "$DESTDIR" ] && [ -d /run/systemd/system ]; then
    systemctl daemon-reload
    systemctl enable kalah-kiosk.service kalah-kiosk-browser.service
    systemctl restart kalah-kiosk.service
    say "kalah-kiosk.service (re)started; the screen starts with the graphical session"
fi
