#!/usr/bin/env bash
# Remove the ETG program, its command and its systemd unit (see INSTALL.txt).
#
#   uninstall.sh [--prefix DIR]
#
# Never deleted: the site configuration (etc/etg: cabinet.yaml, paytables, keys) and the
# data (var/lib/etg: the ledger, its anchor, the logs). A regulator may still need them;
# remove them by hand once the records have been kept as the jurisdiction requires.
set -euo pipefail

prefix="/"
die() { echo "uninstall.sh: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
    case "$1" in
        --prefix) [ $# -ge 2 ] || die "--prefix needs a directory"; prefix="$2"; shift 2 ;;
        -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
        *) die "unknown option $1 (see --help)" ;;
    esac
done
[ -d "$prefix" ] || die "$prefix is not a directory"
root="$(cd "$prefix" && pwd)"
root="${root%/}"

unit="$root/etc/systemd/system/etg-kiosk.service"
if [ -z "$root" ] && [ -e "$unit" ] && command -v systemctl >/dev/null 2>&1 \
        && [ -d /run/systemd/system ]; then
    systemctl disable --now etg-kiosk.service || true
fi
rm -f "$unit"
if [ -z "$root" ] && command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
    systemctl daemon-reload || true
fi
# The command only if it is ours.
if grep -qs "written by install.sh" "$root/usr/local/bin/etg"; then
    rm -f "$root/usr/local/bin/etg"
fi
if [ -d "$root/opt/etg" ]; then
    chmod -R u+w "$root/opt/etg"
    rm -rf "$root/opt/etg"
fi
echo "etg removed from ${root:-/}"
echo "kept: $root/etc/etg (configuration and keys) and $root/var/lib/etg (ledger, anchor, logs)"
