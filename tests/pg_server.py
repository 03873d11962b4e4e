"""A throwaway PostgreSQL server for the tests: initdb in a temporary directory, started on
loopback at a free port, stopped and removed at the end.

PostgreSQL refuses to run as root, so a root caller (CI on this machine) runs the server
as the unprivileged ``nobody`` user; anyone else runs it as themselves. ``unavailable()``
says why a server cannot be had, or None when it can.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

RUN_AS = "nobody"  # who runs the server when the tests run as root


def bin_dir() -> Path | None:
    """The newest installed PostgreSQL's programs (Debian's layout), else those on PATH."""
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"),
        key=lambda p: int(Path(p).parent.parent.name),
    )
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def unavailable() -> str | None:
    """Why no test server can be started here, or None."""
    if bin_dir() is None:
        return "PostgreSQL is not installed (no initdb under /usr/lib/postgresql/*/bin or on PATH)"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam(RUN_AS)
        except KeyError:
            return f"running as root and there is no {RUN_AS!r} user to run PostgreSQL as"
        if shutil.which("runuser") is None:
            return "running as root and there is no runuser to run PostgreSQL as another user"
    return None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class PostgresServer:
    """One server; ``url(database)`` for a client, ``create_database`` for a fresh one."""

    def __init__(self) -> None:
        bindir = bin_dir()
        assert bindir is not None, unavailable()
        self._bin = bindir
        self._root = Path(tempfile.mkdtemp(prefix="solitaire-pg-"))
        self._data = self._root / "data"
        self._as_root = os.geteuid() == 0
        self.port = _free_port()
        self._running = False

    def _run(self, *args: str) -> None:
        command = [str(self._bin / args[0]), *args[1:]]
        if self._as_root:
            command = ["runuser", "-u", RUN_AS, "--", *command]
        subprocess.run(command, check=True, capture_output=True, cwd=self._root)

    def start(self) -> None:
        if self._as_root:
            entry = pwd.getpwnam(RUN_AS)
            os.chmod(self._root, 0o755)  # mkdtemp's 0700 would keep the server out
            os.chown(self._root, entry.pw_uid, entry.pw_gid)
        self._run("initdb", "-D", str(self._data), "-A", "trust", "-U", "postgres",
                  "--no-sync", "-E", "UTF8")
        self._count = 0
        self.resume()

    def resume(self) -> None:
        """Start the server (again) on its data and port."""
        options = (
            f"-h 127.0.0.1 -p {self.port} -k {self._root} "
            "-c fsync=off -c synchronous_commit=off -c full_page_writes=off "
            "-c max_connections=200"
        )
        self._run("pg_ctl", "-D", str(self._data), "-l", str(self._root / "log"), "-o", options,
                  "-w", "start")
        self._running = True

    def pause(self) -> None:
        """Stop the server as an outage would (every session cut at once), keeping its
        data for ``resume`` (a fast shutdown: with fsync off, a crash would lose it)."""
        self._run("pg_ctl", "-D", str(self._data), "-m", "fast", "-w", "stop")
        self._running = False

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def create_database(self) -> str:
        """The URL of a new, empty place to keep tables: a schema of its own in the one
        database (creating a database takes a third of a second, a schema a millisecond),
        chosen by the URL's ``search_path``."""
        self._count += 1
        name = f"test_{self._count}"
        subprocess.run(
            [str(self._bin / "psql"), "-q", "-X", "-h", "127.0.0.1", "-p", str(self.port),
             "-U", "postgres", "-c", f"CREATE SCHEMA {name}"],
            check=True, capture_output=True,
        )
        return f"{self.url()}?search_path={name}"

    def stop(self) -> None:
        if self._running:
            self._run("pg_ctl", "-D", str(self._data), "-m", "immediate", "-w", "stop")
            self._running = False
        shutil.rmtree(self._root, ignore_errors=True)
