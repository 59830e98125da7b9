#!/usr/bin/env bash
# Installs what the test suite needs outside Python: the Debian packages (Chromium for the
# browser tests, a PostgreSQL server for the storage tests, haproxy for the cluster tests: a
# load balancer in front of several servers, npm for axe-core), and axe-core from the npm
# registry at a pinned version into .cache/axe-core/ (git-ignored): the browser tests inject it
# into every page to check accessibility. Skips what is already there.
set -euo pipefail
need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
command -v pg_ctl >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 || need+=(postgresql)
command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ] || need+=(haproxy)
command -v npm >/dev/null 2>&1 || need+=(npm)
if [ ${#need[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  echo "installing Debian packages: ${need[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi

AXE_VERSION=4.14.1  # tests/web/test_axe_pages.py reads it from the installed package
AXE_DIR="$(cd "$(dirname "$0")/.." && pwd)/.cache/axe-core"
if ! grep -qs "\"version\": \"$AXE_VERSION\"" "$AXE_DIR/node_modules/axe-core/package.json"; then
  echo "installing axe-core $AXE_VERSION into $AXE_DIR"
  mkdir -p "$AXE_DIR"
  npm install --prefix "$AXE_DIR" --no-save --no-package-lock --no-audit --no-fund --silent "axe-core@$AXE_VERSION"
fi
