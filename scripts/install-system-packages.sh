#!/usr/bin/env bash
# Installs what the test suite needs outside Python: the Debian packages (Chromium for the
# browser tests, a PostgreSQL server for the storage tests, haproxy for the cluster tests: a
# load balancer in front of several servers), and axe-core's package from the npm registry at a
# pinned version and checksum into .cache/axe-core/ (git-ignored; fetched directly: Debian's npm
# would pull hundreds of packages for one file): the browser tests inject it into every page to
# check accessibility. Skips what is already there.
set -euo pipefail
need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
command -v pg_ctl >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 || need+=(postgresql)
command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ] || need+=(haproxy)
if [ ${#need[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  echo "installing Debian packages: ${need[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi

AXE_VERSION=4.14.1  # tests/web/test_axe_pages.py reads it from the installed package
AXE_DIR="$(cd "$(dirname "$0")/.." && pwd)/.cache/axe-core"
AXE_SHA512="FHfa+lmNjQZfJz1q8wKqIDwC6DExcHt/pkjNQb09a3NPjCKg2rhu5qb2S4r76ASyFNNtuFooJpZe37OgudVGtQ=="
if ! grep -qs "\"version\": \"$AXE_VERSION\"" "$AXE_DIR/node_modules/axe-core/package.json"; then
  echo "installing axe-core $AXE_VERSION into $AXE_DIR"
  python3 - "$AXE_VERSION" "$AXE_SHA512" "$AXE_DIR/node_modules/axe-core" <<'PY'
import base64, hashlib, io, pathlib, sys, tarfile, urllib.request

version, sha512, dest = sys.argv[1], sys.argv[2], pathlib.Path(sys.argv[3])
url = f"https://registry.npmjs.org/axe-core/-/axe-core-{version}.tgz"
data = urllib.request.urlopen(url, timeout=120).read()
if base64.b64encode(hashlib.sha512(data).digest()).decode() != sha512:
    sys.exit(f"axe-core {version}: the download from {url} does not match its checksum")
dest.mkdir(parents=True, exist_ok=True)
with tarfile.open(fileobj=io.BytesIO(data)) as tar:
    for m in tar.getmembers():
        name = m.name.split("/", 1)[1] if "/" in m.name else ""
        if m.isfile() and name and ".." not in name.split("/"):
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            (dest / name).write_bytes(tar.extractfile(m).read())
PY
fi
