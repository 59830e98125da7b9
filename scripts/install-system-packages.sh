#!/usr/bin/env bash
# Installs the Debian packages that the test suite needs: Chromium for the browser tests and a
# PostgreSQL server for the storage tests, and haproxy for the cluster tests (a load balancer in
# front of several servers). Skips what is already there.
set -euo pipefail
need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
command -v pg_ctl >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 || need+=(postgresql)
command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ] || need+=(haproxy)
if [ ${#need[@]} -eq 0 ]; then exit 0; fi
SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
echo "installing Debian packages: ${need[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
