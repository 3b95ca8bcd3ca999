#!/usr/bin/env bash
# Install the npm packages the tests use (package.json, pinned by package-lock.json) once.
# Without npm nothing is installed; the accessibility and tlock-js checks then skip with one line
# (and fail under CI=true, where nothing may be skipped).
set -euo pipefail
cd "$(dirname "$0")/.."
stamp=node_modules/.installed
if [ -f "$stamp" ] && [ "$stamp" -nt package-lock.json ]; then
    exit 0
fi
if ! command -v npm >/dev/null 2>&1; then
    echo "npm is missing (Debian package npm): the accessibility and tlock-js checks will skip"
    exit 0
fi
npm ci --no-audit --no-fund --silent
touch "$stamp"
