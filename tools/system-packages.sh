#!/usr/bin/env bash
# Install the Debian packages the browser, database and JavaScript suites need.
# As root (CI), missing packages are installed with apt-get; elsewhere nothing is
# installed and the suites that need a missing package skip with one line saying so.
# chromium-headless-shell (the same Chromium built without a browser window) is wanted, not
# needed: the browser tests run in it at about half the processor time, and in `chromium`
# when it cannot be installed.
set -euo pipefail
install_shell() {
    command -v chromium-headless-shell >/dev/null 2>&1 && return 0
    [ "$(id -u)" -eq 0 ] || return 0
    echo "installing system package: chromium-headless-shell"
    { apt-get install -y -qq --no-install-recommends chromium-headless-shell \
        || { apt-get update -qq && apt-get install -y -qq --no-install-recommends \
             chromium-headless-shell; }; } >/dev/null 2>&1 \
        || echo "chromium-headless-shell could not be installed; the browser tests use chromium"
}
export DEBIAN_FRONTEND=noninteractive
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v npm >/dev/null 2>&1 || missing+=(npm)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
if [ ${#missing[@]} -eq 0 ]; then
    install_shell
    exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "system packages missing (not root, not installing): ${missing[*]}"
    exit 0
fi
echo "installing system packages: ${missing[*]}"
apt-get update -qq >/dev/null
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
install_shell
