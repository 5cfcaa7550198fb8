#!/bin/sh
# deps.sh PACKAGE... — install the Debian packages kplan needs when missing.
# Called by the Makefile before building and testing; does nothing when all are
# installed.  As root it runs apt-get itself; otherwise it says what to run.
missing=""
for p in "$@"; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0
if ! command -v apt-get >/dev/null 2>&1; then
	echo "kplan: missing packages:$missing (no apt-get here: install them with your package manager)" >&2
	exit 1
fi
if [ "$(id -u)" != 0 ]; then
	echo "kplan: missing packages:$missing" >&2
	echo "kplan: run: sudo apt-get install -y$missing" >&2
	exit 1
fi
echo "kplan: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get install -y --no-install-recommends $missing >/dev/null 2>&1 ||
	{ apt-get update >/dev/null 2>&1 && apt-get install -y --no-install-recommends $missing; }
