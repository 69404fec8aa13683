#!/bin/sh
# Regenerate the 7-spot Maryland par sheet and its A4 screenshots (docs/parsheet/README.md).
# Needs Debian's chromium (apt-get install chromium); run from the repository root.
set -eu
here=$(dirname "$0")
python=${PYTHON:-.venv/bin/python}
"$python" -m etg parsheet config/paytables/maryland-community-7.yaml \
    --out "$here/maryland-community-7.html" --sim-rounds 200000 --seed 0
profile=$(mktemp -d)
tall=$(mktemp --suffix=.png)
trap 'rm -rf "$profile" "$tall"' EXIT
chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$profile" --hide-scrollbars --window-size=1240,20000 \
    --screenshot="$tall" "file://$(realpath "$here/maryland-community-7.html")" 2>/dev/null
rm -f "$here"/maryland-community-7-page-*.png
"$python" "$here/split_pages.py" "$tall" "$here/maryland-community-7-page"
