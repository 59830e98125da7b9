"""``sheepfold cluster``: PostgreSQL, N ``sheepfold serve`` processes and haproxy in front, on
this machine (a demo of many processes, and what the cluster tests start).

PostgreSQL is a temporary one (a folder under the system's temp folder, reached through a Unix
socket there; run as the ``postgres`` user when started as root) unless ``--db`` names one. The
servers listen on free loopback ports; haproxy (Debian's 2.6) listens on ``--port`` and sends
each table's HTTP requests and WebSockets to the process that owns the table (it learns the
owner from the ``x-sheepfold-table`` header the owner puts on its own answers: a stick table
keyed by the table's id), everything else round-robin; it checks ``/healthz`` every second
(every 0.3 s once one failed) and drops a server that fails twice (a request is retried on
another server when its connection is refused: ``redispatch``, which also breaks a table's
stickiness to a dead owner). The configuration it writes is :func:`haproxy_config` (docs/web.md,
"Many processes" and "Routing to the owner").

Each server keeps every limit of ``sheepfold serve`` (its rate limits, its caps per client),
the HTTP rate limits counted once for the whole cluster in its database (server/cluster.py's
``DatabaseBuckets``), and believes haproxy's ``X-Forwarded-For`` (:func:`server_command`: haproxy
is its ``--trusted-proxy``), so that each sees the real client address.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import typer

from sheepfold.cli.common import console, fail, friendly_errors

SERVING = re.compile(r"serving at http://[^\s/]+:(\d+)/")
HAPROXY = ("/usr/sbin/haproxy", "haproxy")


def free_port(host: str = "127.0.0.1") -> int:
    """A port nobody listens on now (the system picks it)."""
    with socket.socket() as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


#: the id of a table in the paths that name one (server/cluster.py's TABLE_WS and TABLE_HTTP)
TABLE_PATHS = (
    ("3", r"^/ws/[A-Za-z0-9]{1,32}$"),
    ("4", r"^/api/tables/[A-Za-z0-9]{1,32}(/[a-z]{1,16})?$"),
)


def haproxy_config(
    port: int, servers: list[int], host: str = "127.0.0.1", stats: Path | None = None
) -> str:
    """haproxy's configuration: ``host:port`` in front of the servers on ``servers``' ports
    (named ``s0``, ``s1``...); ``stats``: a Unix socket that answers ``show stat``."""
    lines = [f"    server s{i} 127.0.0.1:{p} check" for i, p in enumerate(servers)]
    sticks = [f"    stick match path,field({n},/) if {{ path_reg {rx} }}" for n, rx in TABLE_PATHS]
    return "\n".join(
        [
            "global",
            "    maxconn 4000",
            *([f"    stats socket {stats} mode 600 level user"] if stats else []),
            "defaults",
            "    mode http",
            "    option http-server-close",  # one request per server connection: each routed
            "    option redispatch",  # a request for a dead server goes to another
            "    retries 3",
            "    retry-on conn-failure empty-response",
            "    timeout connect 2s",
            "    timeout client 60s",
            "    timeout server 60s",
            "    timeout tunnel 1h",  # an upgraded WebSocket: pings keep it busy
            "    timeout http-request 10s",  # a slow head (slowloris) is cut here
            "    timeout client-fin 5s",
            "frontend sheepfold",
            f"    bind {host}:{port}",
            "    option forwardfor",
            "    default_backend servers",
            "backend servers",
            "    balance roundrobin",  # what names no table, and a table nobody stuck to yet
            # a table's requests go to its owner: learnt from the owner's own answers (relayed
            # ones do not carry it), kept an hour after the last answer that named it
            "    stick-table type string len 32 size 1m expire 1h",
            *sticks,
            "    stick store-response res.hdr(x-sheepfold-table)",
            "    option httpchk GET /healthz",
            "    http-check expect status 200",
            # a dead server refuses the check at once; a busy one may take a while to answer
            "    timeout check 5s",
            "    default-server inter 1s fastinter 300ms downinter 500ms fall 2 rise 1",
            *lines,
            "",
        ]
    )


def _pg_bin() -> Path:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
    if not found:
        raise RuntimeError(
            "PostgreSQL is not installed: run scripts/install-system-packages.sh (or give --db)"
        )
    return found[-1].parent


class TempPostgres:
    """A PostgreSQL server in a temporary folder, on a Unix socket there, until ``stop``."""

    def __init__(self) -> None:
        self.bin = _pg_bin()
        self.folder = Path(tempfile.mkdtemp(prefix="sheepfold-cluster-pg-"))
        self.run_as: list[str] = []
        data, sock = self.folder / "data", self.folder / "sock"
        sock.mkdir()
        if os.geteuid() == 0:  # initdb refuses to run as root
            self.run_as = ["runuser", "-u", _pg_user(), "--"]
            shutil.chown(self.folder, _pg_user())
            shutil.chown(sock, _pg_user())
        self.data = data
        run = [*self.run_as, str(self.bin / "initdb"), "-D", str(data), "-A", "trust"]
        subprocess.run(
            [*run, "-U", "postgres", "--no-sync", "-E", "UTF8"], check=True, capture_output=True
        )
        subprocess.run(
            [
                *self.run_as,
                str(self.bin / "pg_ctl"),
                "-D",
                str(data),
                "-l",
                str(self.folder / "log"),
                "-w",
                "-t",
                "60",
                "-o",
                f"-k {sock} -c listen_addresses='' -c fsync=off -c max_connections=200",
                "start",
            ],
            check=True,
            capture_output=True,
        )
        self.url = f"postgresql://postgres@/postgres?host={sock}"

    def stop(self) -> None:
        pg_ctl = [*self.run_as, str(self.bin / "pg_ctl"), "-D", str(self.data)]
        subprocess.run([*pg_ctl, "-m", "immediate", "stop"], capture_output=True)
        shutil.rmtree(self.folder, ignore_errors=True)


def _pg_user() -> str:
    import pwd

    try:
        pwd.getpwnam("postgres")
        return "postgres"
    except KeyError:
        subprocess.run(["useradd", "--system", "--no-create-home", "sheepfold-pg"], check=True)
        return "sheepfold-pg"


BALANCER = "127.0.0.1"
"""The address haproxy connects to the servers from (they listen on the loopback)."""


def server_command(port: int, db: str, options: Iterable[str] = ()) -> list[str]:
    """The command line of one server of the cluster: ``sheepfold serve`` with its limits (the
    same as a lone server's), haproxy its one trusted proxy (its X-Forwarded-For names the
    client), and ``options``."""
    cmd = [sys.executable, "-m", "sheepfold.cli.main", "serve", "--host", "127.0.0.1"]
    return [*cmd, "--port", str(port), "--db", db, "--trusted-proxy", BALANCER, *options]


class Server:
    """One ``sheepfold serve`` process of the cluster, on a port of its own."""

    def __init__(self, cluster: LocalCluster, index: int, port: int) -> None:
        self.cluster, self.index, self.port = cluster, index, port
        self.proc: subprocess.Popen[str] | None = None
        self.ready = threading.Event()

    def start(self) -> None:
        c = self.cluster
        log = open(c.folder / f"server{self.index}.log", "ab")
        cmd = server_command(self.port, c.db, c.options)
        self.ready.clear()
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=log, text=True)
        log.close()
        threading.Thread(target=self._read, args=(self.proc,), daemon=True).start()

    def _read(self, proc: subprocess.Popen[str]) -> None:  # to the end: it never blocks on it
        assert proc.stdout is not None
        for line in proc.stdout:
            if SERVING.search(line):
                self.ready.set()

    def wait(self, timeout: float = 600) -> None:
        """Until it listens (a cold numba cache compiles the bots first: minutes)."""
        end = time.monotonic() + timeout
        while not self.ready.wait(0.05):
            if self.proc is None or self.proc.poll() is not None or time.monotonic() > end:
                log = (self.cluster.folder / f"server{self.index}.log").read_text()[-3000:]
                raise RuntimeError(f"server {self.index} did not start: {log}")

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        """kill -9: nothing of the process's own clean-up runs."""
        if self.alive():
            assert self.proc is not None
            self.proc.kill()
            self.proc.wait()

    def stop(self, timeout: float = 20) -> None:
        """SIGTERM: it finishes what it sends and frees its tables."""
        if self.alive():
            assert self.proc is not None
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.kill()


class LocalCluster:
    """PostgreSQL (``db``, or a temporary one), ``servers`` processes of ``sheepfold serve``
    (with ``options``) and haproxy on ``port`` (0: a free one), on this machine."""

    def __init__(
        self,
        servers: int = 3,
        port: int = 0,
        db: str | None = None,
        options: list[str] | None = None,
    ) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="sheepfold-cluster-"))
        self.options = options or []
        self.pg: TempPostgres | None = None
        self.db = db or ""
        self.port = port or free_port()
        self.servers = [Server(self, i, free_port()) for i in range(servers)]
        self.haproxy: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> LocalCluster:
        haproxy = next((h for h in HAPROXY if shutil.which(h)), None)
        if haproxy is None:
            raise RuntimeError("haproxy is not installed: run scripts/install-system-packages.sh")
        try:
            if not self.db:
                self.pg = TempPostgres()
                self.db = self.pg.url
            first, *rest = self.servers  # the first warms the bots' compiled code (a cache)
            first.start()
            first.wait()
            for s in rest:
                s.start()
            for s in rest:
                s.wait()
            cfg = self.folder / "haproxy.cfg"
            ports = [s.port for s in self.servers]
            cfg.write_text(haproxy_config(self.port, ports, stats=self.stats))
            log = open(self.folder / "haproxy.log", "ab")
            self.haproxy = subprocess.Popen([haproxy, "-f", str(cfg), "-db"], stderr=log)
            log.close()
            self._wait_balancer()
            self.wait_up()
        except BaseException:
            self.close()
            raise
        return self

    def _wait_balancer(self, timeout: float = 30) -> None:
        import httpx

        end = time.monotonic() + timeout
        while True:
            assert self.haproxy is not None
            if self.haproxy.poll() is not None:
                raise RuntimeError(
                    "haproxy did not start: " + (self.folder / "haproxy.log").read_text()[-2000:]
                )
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(self.url + "/healthz", timeout=2).status_code == 200:
                    return
            if time.monotonic() > end:
                raise RuntimeError(f"haproxy does not answer on {self.url}")
            time.sleep(0.05)

    @property
    def stats(self) -> Path:
        """haproxy's stats socket (``show stat``)."""
        return self.folder / "haproxy.sock"

    def stat(self) -> dict[int, dict[str, str]]:
        """haproxy's ``show stat`` of each server (by index): ``status``, ``lbtot`` (the times
        its balancing chose it), ``stot`` (its sessions)..."""
        with socket.socket(socket.AF_UNIX) as sock:
            sock.settimeout(5)
            sock.connect(str(self.stats))
            sock.sendall(b"show stat\n")
            answer = b""
            while chunk := sock.recv(65536):
                answer += chunk
        header, *rows = answer.decode().splitlines()
        names = header.lstrip("# ").split(",")
        found = {}
        for row in rows:
            f = dict(zip(names, row.split(","), strict=False))
            name = f.get("svname", "")
            if f.get("pxname") == "servers" and name[:1] == "s" and name[1:].isdigit():
                found[int(name[1:])] = f
        return found

    def up(self) -> set[int]:
        """The servers haproxy sends requests to now: its last health check of each passed."""
        return {i for i, f in self.stat().items() if f.get("status", "").startswith("UP")}

    def wait_up(self, indices: Iterable[int] | None = None, timeout: float = 30) -> None:
        """Until haproxy sends requests to every server of ``indices`` (all: None), which it
        does from its next health check after a start, within a second."""
        want = set(range(len(self.servers)) if indices is None else indices)
        end = time.monotonic() + timeout
        while not want <= self.up():
            if time.monotonic() > end:
                raise RuntimeError(f"haproxy does not send requests to servers {sorted(want)}")
            time.sleep(0.05)

    def restart(self, index: int) -> None:
        """Server ``index`` started again on its port (after a kill or a stop), and haproxy
        sending requests to it again."""
        s = self.servers[index]
        s.kill()
        s.start()
        s.wait()
        if self.haproxy is not None:
            self.wait_up([index])

    def close(self) -> None:
        for s in self.servers:
            s.stop(10)
        if self.haproxy is not None and self.haproxy.poll() is None:
            self.haproxy.terminate()
            try:
                self.haproxy.wait(10)
            except subprocess.TimeoutExpired:
                self.haproxy.kill()
        if self.pg is not None:
            self.pg.stop()
        shutil.rmtree(self.folder, ignore_errors=True)


@friendly_errors
def cluster_command(
    servers: int = typer.Option(3, min=1, max=32, help="sheepfold serve processes"),
    port: int = typer.Option(8000, help="port haproxy listens on (on 127.0.0.1)"),
    db: str = typer.Option(
        "", help="a PostgreSQL URL (postgresql://USER@HOST/DB); default: a temporary one"
    ),
    bot_delay: float = typer.Option(0.7, help="seconds a bot waits before each decision"),
) -> None:
    """Start PostgreSQL, several servers and haproxy in front of them, on this machine: open the
    printed address. Ctrl+C stops everything (a temporary database goes with it)."""
    if db and not db.startswith(("postgresql://", "postgres://")):
        raise fail("--db: a cluster needs PostgreSQL (postgresql://USER@HOST/DB)")
    cluster = LocalCluster(servers, port, db or None, ["--bot-delay", str(bot_delay)])
    try:
        cluster.start()
    except RuntimeError as e:
        raise fail(str(e)) from None
    where = "a temporary PostgreSQL" if cluster.pg else db.split("@")[-1]
    ports = ", ".join(str(s.port) for s in cluster.servers)
    console.print(f"sheepfold is serving at [bold]http://localhost:{port}/[/]", highlight=False)
    console.print(
        f"haproxy in front of {servers} servers (ports {ports}), tables in {where}; Ctrl+C stops",
        highlight=False,
        soft_wrap=True,
    )
    try:
        while True:
            time.sleep(1)
            dead = [s.index for s in cluster.servers if not s.alive()]
            if len(dead) == len(cluster.servers):
                raise fail("every server died: see the logs in " + str(cluster.folder))
    except KeyboardInterrupt:
        pass
    finally:
        cluster.close()


def register(app: Any) -> None:
    app.command("cluster")(cluster_command)
