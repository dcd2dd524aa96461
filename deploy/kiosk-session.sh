#!/bin/sh
# The kiosk's screen: wait until the kiosk server answers /health, then Chromium in kiosk mode on the
# local display, full screen with no way out of the page (the flags are docs/kiosk.md's).
#
# Run by kalah-kiosk-browser.service, or from the desktop user's session (~/.xsession, an autostart
# entry). Settings, from the environment (the unit reads them from /etc/kalah-kiosk/browser.env):
#   KALAH_KIOSK_URL      the page, with the control token: http://127.0.0.1:8360/?control=TOKEN
#   KALAH_KIOSK_PROFILE  Chromium's profile folder (default /var/tmp/kalah-kiosk-profile)
#   KALAH_KIOSK_WAIT     seconds to wait for the server before giving up (default 600; systemd retries)
#   KALAH_KIOSK_BROWSER  the browser (default chromium)
#   KALAH_KIOSK_FLAGS    extra flags, appended (tests use --headless)
set -eu
URL="${KALAH_KIOSK_URL:-http://127.0.0.1:8360/}"
PROFILE="${KALAH_KIOSK_PROFILE:-/var/tmp/kalah-kiosk-profile}"
WAIT="${KALAH_KIOSK_WAIT:-600}"
BROWSER="${KALAH_KIOSK_BROWSER:-chromium}"
BASE="${URL%%\?*}"
HEALTH="${BASE%/}/health"

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
        echo "kiosk-session: no answer from $HEALTH in $WAIT s" >&2
        exit 1
    fi
    sleep 1
    waited=$((waited + 1))
done
echo "kiosk-session: the server answers after $waited s; opening $BASE" >&2

# --autoplay-policy: the exhibit's sound plays with no tap first (a kiosk has nobody to click "allow")
# shellcheck disable=SC2086  # KALAH_KIOSK_FLAGS is a list of flags
exec "$BROWSER" --kiosk --noerrdialogs --disable-infobars --disable-session-crashed-bubble \
    --disable-pinch --overscroll-history-navigation=0 --no-first-run \
    --autoplay-policy=no-user-gesture-required \
    --user-data-dir="$PROFILE" ${KALAH_KIOSK_FLAGS:-} "$URL"
