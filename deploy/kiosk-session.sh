#!/bin/sh
# The kiosk's screen, run by cage (kalah-kiosk-screen.service: cage -d -s -- this script): turn the
# picture if asked, wait until the kiosk server answers /health, then Chromium in kiosk mode, full
# screen with no way out of the page.  When Chromium ends, cage ends, and systemd starts both again.
#
# Settings, from the environment (the unit reads /etc/kalah-kiosk/browser.env and screen.env):
#   KALAH_KIOSK_URL      the page, with the control token: http://127.0.0.1:8360/?control=TOKEN
#   KALAH_KIOSK_ROTATE   0, 90, 180 or 270: the picture turned by wlr-randr --transform (default 0)
#   KALAH_KIOSK_OUTPUTS  the outputs to turn (default: every one)
#   KALAH_KIOSK_PROFILE  Chromium's profile folder (default: in the session's XDG_RUNTIME_DIR, a tmpfs
#                        that logind empties when the session ends: every start is a first start with
#                        no "restore pages?" and no page files left from before an update)
#   KALAH_KIOSK_WAIT     seconds to wait for the server before giving up (default 600; systemd retries)
#   KALAH_KIOSK_BROWSER  the browser (default chromium)
#   KALAH_KIOSK_FLAGS    extra flags, appended (the screen session's test adds its debugging port)
set -eu
URL="${KALAH_KIOSK_URL:-http://127.0.0.1:8360/}"
ROTATE="${KALAH_KIOSK_ROTATE:-0}"
PROFILE="${KALAH_KIOSK_PROFILE:-${XDG_RUNTIME_DIR:-/var/tmp}/kalah-kiosk-profile}"
WAIT="${KALAH_KIOSK_WAIT:-600}"
BROWSER="${KALAH_KIOSK_BROWSER:-chromium}"
BASE="${URL%%\?*}"
HEALTH="${BASE%/}/health"
say() { echo "kiosk-session: $*" >&2; }

# the outputs, as cage names them (the first word of each wlr-randr heading: HDMI-A-1, eDP-1, ...),
# then the turn asked for; Debian 12's cage (0.1.4) cannot be asked from inside, only by its -r flag
if [ -n "${WAYLAND_DISPLAY:-}" ]; then
    if listing="$(wlr-randr 2>/dev/null)"; then
        outputs="$(printf '%s\n' "$listing" | sed -n 's/^\([^ ][^ ]*\).*/\1/p')"
        say "outputs:" $outputs
        case "$ROTATE" in
            0) ;;
            90|180|270)
                for output in ${KALAH_KIOSK_OUTPUTS:-$outputs}; do
                    wlr-randr --output "$output" --transform "$ROTATE" || say "could not turn $output"
                done
                say "the picture turned $ROTATE degrees" ;;
            *) say "KALAH_KIOSK_ROTATE=$ROTATE ignored: 0, 90, 180 or 270" ;;
        esac
    else
        [ "$ROTATE" = 0 ] || say "this cage cannot turn the picture (Debian 12: give cage -r instead, docs/kiosk.md)"
    fi
fi

# any answer counts, 503 included: a degraded kiosk still serves its page, and the page waits by itself
answers() {
    python3 - "$1" <<'PY'
import sys, urllib.error, urllib.request
try:
    urllib.request.urlopen(sys.argv[1], timeout=3).close()
except urllib.error.HTTPError:
    pass
except OSError:
    sys.exit(1)
PY
}

waited=0
until answers "$HEALTH"; do
    if [ "$waited" -ge "$WAIT" ]; then
        say "no answer from $HEALTH in $WAIT s"
        exit 1
    fi
    sleep 1
    waited=$((waited + 1))
done
say "the server answers after $waited s; opening $BASE"

# On Wayland (in cage) Chromium draws as a Wayland client; elsewhere (a test's --headless) as it likes.
# No prompt may ever show on a screen with no keyboard:
#   --password-store=basic       no keyring to unlock (GNOME keyring, KWallet)
#   --disable-features=Translate no "translate this page?" bar (the page is in four languages)
#   --no-first-run, --no-default-browser-check, --disable-session-crashed-bubble,
#   --hide-crash-restore-bubble  no welcome, default-browser or "restore pages?" questions
#   --noerrdialogs, --disable-infobars
# and no way off the page: --kiosk, --disable-pinch, --overscroll-history-navigation=0.
# --autoplay-policy: the exhibit's sound plays with no tap first (a kiosk has nobody to click "allow");
# it goes to ALSA's default device (no PipeWire or PulseAudio runs in the session: Chromium falls back
# to ALSA by itself).
wayland=""
[ -z "${WAYLAND_DISPLAY:-}" ] || wayland="--ozone-platform=wayland"
# shellcheck disable=SC2086  # KALAH_KIOSK_FLAGS is a list of flags
exec "$BROWSER" $wayland --kiosk --noerrdialogs --disable-infobars --disable-session-crashed-bubble \
    --hide-crash-restore-bubble --no-first-run --no-default-browser-check --password-store=basic \
    --disable-features=Translate,TranslateUI --disable-pinch --overscroll-history-navigation=0 \
    --autoplay-policy=no-user-gesture-required \
    --user-data-dir="$PROFILE" ${KALAH_KIOSK_FLAGS:-} "$URL"
