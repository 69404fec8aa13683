#!/usr/bin/env bash
# The cabinet release (SPEC §10): dist/etg/ (PyInstaller onedir, with its SHA-256 software
# manifest) and dist/etg-<version>-linux-<arch>.tar.gz holding it with install.sh,
# uninstall.sh and the systemd unit. One command, from anywhere:
#
#     bash build/build.sh
#
# Every library comes from build/constraints.txt (exact pins, build tools included), installed
# into a fresh virtualenv build/out/venv, with etg itself as a plain wheel (never editable): two
# builds of one tag hold the same libraries. Nothing is fetched but from the package index.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"

python="${PYTHON:-python3}"
out="build/out"
venv="$out/venv"
export PIP_CONSTRAINT="$repo/build/constraints.txt"  # also pins the wheel build's setuptools
export PIP_DISABLE_PIP_VERSION_CHECK=1
export PYTHONHASHSEED=0
export SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}"

echo "== release virtualenv from build/constraints.txt"
rm -rf "$venv" "$out/work" dist/etg
"$python" -m venv "$venv"
"$venv/bin/pip" install --quiet --no-cache-dir ".[build]"

version="$("$venv/bin/python" -c 'from importlib.metadata import version; print(version("etg-casino-war"))')"
arch="$(uname -m)"
name="etg-$version-linux-$arch"

echo "== PyInstaller onedir build of etg $version"
(cd build && "../$venv/bin/pyinstaller" --noconfirm --clean --log-level WARN \
    --distpath "$repo/dist" --workpath "$repo/$out/work" etg.spec)

echo "== software manifest"
"$venv/bin/python" - "$repo/dist/etg" "$version" <<'PY'
import sys
from pathlib import Path

from etg.release.manifest import manifest_digest, write_manifest

path = write_manifest(Path(sys.argv[1]), sys.argv[2])
print(f"{path}\nsha256 {manifest_digest(path)}")
PY

echo "== release archive"
stage="$out/stage/$name"
rm -rf "$out/stage" "dist/$name.tar.gz"
mkdir -p "$stage"
cp -a dist/etg "$stage/etg"
cp build/release/install.sh build/release/uninstall.sh build/release/etg-kiosk.service.in \
   build/release/INSTALL.txt "$stage/"
chmod 0755 "$stage/install.sh" "$stage/uninstall.sh"
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$SOURCE_DATE_EPOCH" \
    -C "$out/stage" -cf - "$name" | gzip -n -9 > "dist/$name.tar.gz"
echo "dist/etg/ and dist/$name.tar.gz are ready"
