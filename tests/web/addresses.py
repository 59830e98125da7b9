"""Several source addresses for one test: IPv4 loopback addresses, and IPv6 /64s in a private
network namespace.

- IPv4: every address of 127.0.0.0/8 is the machine's own, so a client whose socket is bound to
  127.0.0.2, 127.0.1.9... reaches a server listening on 127.0.0.1 and is seen from that
  address (:func:`ipv4`, :func:`http_from`).
- IPv6: the machine's network may have no IPv6 at all, but a new network namespace (``unshare
  -n``, as root) has a loopback of its own: there :func:`in_namespace` brings it up, makes every
  address of :data:`NET6` and :data:`OTHER6` local (a ``local`` route each, and
  ``ip_nonlocal_bind``: any of their 2**64 addresses can be bound without adding it) and runs a
  Python script, whose sockets and servers live in that namespace only.

:func:`namespace_refusal` says why a namespace cannot be made here (None: it can).
"""

from __future__ import annotations

import ipaddress
import shutil
import subprocess
import sys
from typing import Any

import httpx

#: the /64 a crowd of IPv6 clients comes from, and another one (a second person)
NET6 = ipaddress.IPv6Network("fd00:1::/64")
OTHER6 = ipaddress.IPv6Network("fd00:2::/64")
#: where a server listens in the namespace (an address of NET6; "::" takes IPv4 as well)
SERVER6 = "fd00:1::1"

SETUP = " && ".join(
    [
        "ip link set lo up",
        f"ip -6 addr add {SERVER6}/64 dev lo nodad",
        *(f"ip -6 route add local {net} dev lo table local" for net in (NET6, OTHER6)),
        "sysctl -qw net.ipv6.ip_nonlocal_bind=1",
    ]
)


def ipv4(n: int, net: int = 0) -> str:
    """The n-th client address of loopback /24 number ``net``: 127.0.net.(n + 2) (127.0.0.1
    is the server's)."""
    return f"127.0.{net}.{n + 2}"


def ipv6(n: int, net: ipaddress.IPv6Network = NET6) -> str:
    """The n-th client address of ``net``, spread over its host bits (2 is not 1 more than 1)."""
    return str(net[0x1000_0000 * (n + 2) + n])


def http_from(base: str, address: str, **kw: Any) -> httpx.Client:
    """An HTTP client for ``base`` whose connections come from ``address``."""
    transport = httpx.HTTPTransport(local_address=address)
    return httpx.Client(base_url=base, transport=transport, timeout=kw.pop("timeout", 10), **kw)


def namespace_refusal() -> str | None:
    """Why no network namespace with IPv6 can be made here, or None."""
    if sys.platform != "linux":
        return "network namespaces are Linux's"
    missing = [tool for tool in ("unshare", "ip", "sysctl") if shutil.which(tool) is None]
    if missing:
        return f"missing {', '.join(missing)}"
    tried = subprocess.run(
        ["unshare", "-n", "sh", "-c", SETUP], capture_output=True, text=True, timeout=30
    )
    if tried.returncode:
        return f"no network namespace with IPv6 here: {tried.stderr.strip()[:200]}"
    return None


def in_namespace(script: str, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """``python -c script args...`` (this Python, this environment) in a new network namespace
    set up as the module says; its output, whatever its exit status."""
    command = f'{SETUP} && exec "$0" -c "$@"'
    return subprocess.run(
        ["unshare", "-n", "sh", "-c", command, sys.executable, script, *args],
        capture_output=True,
        text=True,
        timeout=timeout,
    )
