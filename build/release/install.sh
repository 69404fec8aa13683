#!/usr/bin/env bash
# Install the ETG release this script came with (see INSTALL.txt beside it).
#
#   install.sh [--prefix DIR] [--user NAME] [--display :N] [--no-service]
#
# Everything goes under --prefix (default /): the program to opt/etg/<version> (read-only,
# opt/etg/current points at it), the command usr/local/bin/etg, the site configuration
# etc/etg (cabinet.yaml, paytables/, keys/, ledger.yaml), the data var/lib/etg (ledger,
# anchor, logs) and the systemd unit etc/systemd/system/etg-kiosk.service. The first install
# makes the cabinet's ledger and its key pair with `etg ledger init`, as the kiosk's user: the
# private key is that user's alone, the public key everyone's. Existing configuration, keys
# and ledgers are never overwritten. systemd is told only when installing to / .
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
prefix="/"
user="etg"
display=":0"
service=1

die() { echo "install.sh: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
    case "$1" in
        --prefix) [ $# -ge 2 ] || die "--prefix needs a directory"; prefix="$2"; shift 2 ;;
        --user) [ $# -ge 2 ] || die "--user needs a name"; user="$2"; shift 2 ;;
        --display) [ $# -ge 2 ] || die "--display needs a value such as :0"; display="$2"; shift 2 ;;
        --no-service) service=0; shift ;;
        -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
        *) die "unknown option $1 (see --help)" ;;
    esac
done

bundle="$here/etg"
[ -x "$bundle/etg" ] || die "$bundle/etg is missing: run me from the unpacked release folder"
mkdir -p "$prefix"
prefix="$(cd "$prefix" && pwd)"
root="${prefix%/}"   # "" for /, so paths below read /opt/etg, /etc/etg, ...

# GLI-11 software verification before anything is copied: a damaged archive is refused.
if ! "$bundle/etg" verify --bundle "$bundle" >/dev/null; then
    "$bundle/etg" verify --bundle "$bundle" >&2 || true
    die "the program's files do not match its software manifest; nothing was installed"
fi
version="$(sed -n 's/.*"version":"\([^"]*\)".*/\1/p' "$bundle/etg-manifest.json")"
[ -n "$version" ] || die "cannot read the version from $bundle/etg-manifest.json"

if ! id -u "$user" >/dev/null 2>&1; then
    [ -z "$root" ] || die "user $user does not exist (under --prefix, name an existing one with --user)"
    useradd --system --home-dir /var/lib/etg --no-create-home --shell /usr/sbin/nologin \
        --groups video,input,audio "$user"
fi
group="$(id -gn "$user")"

program_root="$root/opt/etg"
program="$program_root/$version"
config="$root/etc/etg"
data="$root/var/lib/etg"
unit="$root/etc/systemd/system/etg-kiosk.service"

echo "installing etg $version under ${root:-/}"
# The program: a fresh copy, read-only for everyone, owned by root.
mkdir -p "$program_root"
if [ -e "$program" ]; then chmod -R u+w "$program"; rm -rf "$program"; fi
cp -a "$bundle" "$program.partial"
chown -R 0:0 "$program.partial" 2>/dev/null || true
chmod -R a-w,a+rX "$program.partial"
mv -T "$program.partial" "$program"
# Beside the program, not in it: the software manifest lists every file of the folder.
install -m 0644 "$here/INSTALL.txt" "$program_root/INSTALL.txt"
install -m 0755 "$here/uninstall.sh" "$program_root/uninstall.sh"
ln -sfn "$version" "$program_root/current.new" && mv -T "$program_root/current.new" "$program_root/current"

# The site configuration: the shipped defaults where missing, never over what is there.
# It and keys/ can be read through by everyone, for the public key; cabinet.yaml (PIN
# hashes) and the private key are not.
install -d -m 0755 -o "$user" -g "$group" "$config" "$config/keys"
install -d -m 0750 -o "$user" -g "$group" "$config/paytables"
shipped="$program/_internal/etg/data/config"
[ -e "$config/cabinet.yaml" ] || install -m 0640 -o "$user" -g "$group" "$shipped/cabinet.yaml" "$config/cabinet.yaml"
for table in "$shipped"/paytables/*.yaml; do
    target="$config/paytables/$(basename "$table")"
    [ -e "$target" ] || install -m 0640 -o "$user" -g "$group" "$table" "$target"
done

# The data: the ledger, its anchor and lock, the logs; the program creates the files.
install -d -m 0750 -o "$user" -g "$group" "$data" "$data/logs"

# The cabinet's real ledger and its key pair, made once and on purpose (issue 25): by the
# kiosk's user, so the private key is its own (0600). After this nothing ever makes them
# again: a lost ledger, folder or key is a fault. An upgrade from a ledger written before the
# signatures adopts it (its older chain sealed under the new key).
if [ ! -e "$config/ledger.yaml" ]; then
    as_user=()
    [ "$(id -un)" = "$user" ] || as_user=(runuser -u "$user" --)
    "${as_user[@]}" env ETG_CONFIG_DIR="$config" ETG_DATA_DIR="$data" \
        "$program_root/current/etg" ledger init --config "$config" >/dev/null \
        || die "etg ledger init did not make the cabinet's ledger (see above); run it again once fixed"
fi
chmod 0600 "$config/keys/ledger.ed25519"
chmod 0644 "$config/keys/ledger.pub" "$config/ledger.yaml"

# The command a technician types: the current program with the cabinet's places.
mkdir -p "$root/usr/local/bin"
cat > "$root/usr/local/bin/etg.new" <<SH
#!/bin/sh
# ETG on this cabinet (written by install.sh): the current release, with its places.
: "\${ETG_CONFIG_DIR:=$config}"
: "\${ETG_DATA_DIR:=$data}"
export ETG_CONFIG_DIR ETG_DATA_DIR
exec "$program_root/current/etg" "\$@"
SH
chmod 0755 "$root/usr/local/bin/etg.new"
mv -T "$root/usr/local/bin/etg.new" "$root/usr/local/bin/etg"

if [ "$service" = 1 ]; then
    mkdir -p "$(dirname "$unit")"
    sed -e "s|@PROGRAM@|$program_root/current|g" -e "s|@DOCS@|$program_root|g" -e "s|@USER@|$user|g" -e "s|@GROUP@|$group|g" \
        -e "s|@CONFIG@|$config|g" -e "s|@DATA@|$data|g" -e "s|@DISPLAY@|$display|g" \
        "$here/etg-kiosk.service.in" > "$unit"
    chmod 0644 "$unit"
    if [ -z "$root" ] && command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
        systemctl daemon-reload
        systemctl enable etg-kiosk.service
        systemctl try-restart etg-kiosk.service
        echo "etg-kiosk.service enabled: the kiosk starts at boot (now: systemctl start etg-kiosk)"
    else
        echo "unit written to $unit (systemd not told: not installing to /)"
    fi
fi
echo "installed: $program_root/current -> $version; configuration $config; data $data"
echo "ledger public key: $config/keys/ledger.pub (etg ledger pubkey prints it and its fingerprint)"
echo "next: etg pin set --role operator; etg pin set --role supervisor; etg verify; etg smoke-test"
