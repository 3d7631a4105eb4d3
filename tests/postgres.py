"""A throwaway PostgreSQL server for the test session (the Debian server binaries, ``initdb``/``pg_ctl``).

The server refuses to run as root, so as root (CI, the dev machines) the cluster belongs to the
``postgres`` user (``runuser -u postgres -- …``) in a temporary folder it owns. It listens on
127.0.0.1 at a free port with trust authentication and its unix socket inside that folder, with
durability off (fsync) since nothing in it must survive. `Cluster.database()` gives each test a
fresh database; `restart()` restarts the server under running clients.
"""

from __future__ import annotations

import itertools
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

import psycopg

SUPERUSER = "postgres"
PASSWORD = "sakuin-test-password"
"""Trust authentication ignores it; it is in every URL so that redaction is always exercised."""


def server_binaries() -> Path | None:
    """The newest ``/usr/lib/postgresql/<version>/bin`` with initdb and pg_ctl, or PATH's."""
    candidates = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"),
        key=lambda path: int(path.parent.parent.name) if path.parent.parent.name.isdigit() else 0,
    )
    if candidates:
        return candidates[-1].parent
    found = shutil.which("initdb")
    return Path(found).parent if found and shutil.which("pg_ctl") else None


def runuser() -> str:
    """``runuser`` lives in /usr/sbin, which a non-login PATH may lack."""
    return shutil.which("runuser") or next(
        (str(path) for path in (Path("/usr/sbin/runuser"), Path("/sbin/runuser")) if path.exists()), "runuser"
    )


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Cluster:
    def __init__(self, binaries: Path) -> None:
        self.binaries = binaries
        self.as_postgres = os.geteuid() == 0
        self.root = Path(tempfile.mkdtemp(prefix="sakuin-pg-"))
        self.data = self.root / "data"
        self.port = free_port()
        self._names = itertools.count(1)
        if self.as_postgres:
            shutil.chown(self.root, SUPERUSER, SUPERUSER)

    def _run(self, *command: str) -> None:
        prefix = [runuser(), "-u", SUPERUSER, "--"] if self.as_postgres else []
        done = subprocess.run(
            [*prefix, *command], capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=120
        )
        if done.returncode != 0:
            raise RuntimeError(
                f"{' '.join(command[:2])} failed: {done.stderr.strip() or done.stdout.strip()}"
            )

    def start(self) -> Cluster:
        self._run(
            str(self.binaries / "initdb"), "-D", str(self.data), "-U", SUPERUSER, "-A", "trust",
            "-E", "UTF8", "--locale=C", "--no-sync", "--no-instructions",
        )  # fmt: skip
        self._pg_ctl("start")
        return self

    def _pg_ctl(self, action: str) -> None:
        options = (
            f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off"
            " -c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
        )
        self._run(
            str(self.binaries / "pg_ctl"), action, "-D", str(self.data), "-l", str(self.root / "server.log"),
            "-o", options, "-m", "fast", "-w", "-t", "60",
        )  # fmt: skip

    def stop(self) -> None:
        try:
            self._pg_ctl("stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def restart(self) -> None:
        """Stop the server (connections are cut) and start it again on the same port."""
        self._pg_ctl("restart")

    def stop_server(self) -> None:
        self._pg_ctl("stop")

    def start_server(self) -> None:
        self._pg_ctl("start")

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{SUPERUSER}:{PASSWORD}@127.0.0.1:{self.port}/{database}"

    def database(self) -> str:
        """A new empty database; returns its URL."""
        name = f"sakuin_test_{next(self._names)}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)
