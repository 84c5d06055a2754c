"""A throwaway PostgreSQL cluster and real `drumlin-sync` processes, for the sync tests.

- `PostgresCluster`: initdb into a temporary folder (as the unprivileged `postgres` user when the
  tests run as root, through setpriv: PostgreSQL refuses to run as root), a free TCP port on 127.0.0.1, its Unix
  socket in the same folder; `psql()` runs SQL through Debian's psql; `stop()` ends it.
- `SyncService`: one `drumlin-sync serve` process on a free port, started against a database and
  ready when `/health` answers 200; `kill()` sends SIGKILL, `stop()` SIGTERM.
- `Keys`: an RSA key pair; `token()` signs RS256 JWTs the way an app's backend would.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, padding, rsa

PG_BIN = Path(os.environ.get("DRUMLIN_PG_BIN", "/usr/lib/postgresql/15/bin"))
ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def as_postgres_user() -> list[str]:
    """The command prefix that runs a PostgreSQL binary as an unprivileged user."""
    if os.geteuid() != 0:
        return []
    # setpriv execs the command (runuser would stay in between and not pass signals on).
    return ["setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups", "--"]


class PostgresCluster:
    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="drumlin-sync-pg-"))
        self.data = self.folder / "data"
        self.port = free_port()
        self.log = self.folder / "postgres.log"
        self.process: subprocess.Popen[bytes] | None = None
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres", "postgres")
            self.folder.chmod(0o700)
        self.run([str(PG_BIN / "initdb"), "-D", str(self.data), "-U", "postgres", "-A", "trust", "-E", "UTF8",
                  "--locale=C", "--no-sync"])
        self.start()

    def run(self, command: list[str]) -> None:
        result = subprocess.run(as_postgres_user() + command, capture_output=True, text=True)
        if result.returncode != 0:
            raise RuntimeError(f"{command[0]} failed: {result.stdout}{result.stderr}")

    def start(self) -> None:
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                as_postgres_user() + [str(PG_BIN / "postgres"), "-D", str(self.data), "-p", str(self.port),
                                      "-k", str(self.folder), "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off",
                                      "-c", "max_connections=200", "-c", "timezone=UTC"],
                stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            ready = subprocess.run([str(PG_BIN / "pg_isready"), "-h", "127.0.0.1", "-p", str(self.port)],
                                   capture_output=True)
            if ready.returncode == 0:
                return
            if self.process.poll() is not None:
                raise RuntimeError(f"postgres exited: {self.log.read_text()[-2000:]}")
            time.sleep(0.1)
        raise RuntimeError("postgres did not become ready within 60 s")

    def url(self, database: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}?sslmode=disable"

    def psql(self, sql: str, database: str = "postgres") -> list[list[str]]:
        """Runs SQL; returns the rows of the last statement, each a list of column texts."""
        result = subprocess.run(
            [str(PG_BIN / "psql"), "-X", "-q", "-A", "-t", "-F", "\x1f", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1",
             "-p", str(self.port), "-U", "postgres", "-d", database, "-c", sql],
            capture_output=True, text=True)
        if result.returncode != 0:
            raise RuntimeError(f"psql: {result.stderr.strip()}")
        return [line.split("\x1f") for line in result.stdout.splitlines() if line]

    def session(self, database: str) -> "PsqlSession":
        return PsqlSession(self, database)

    def create_database(self, name: str) -> str:
        self.psql(f'CREATE DATABASE "{name}"')
        return name

    def halt(self, how: signal.Signals = signal.SIGINT) -> None:
        """Stops the server (SIGINT: fast shutdown, which keeps its data for `start()`)."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(how)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def stop(self) -> None:
        """Immediate shutdown (SIGQUIT) and the data deleted: a fast shutdown's checkpoint of a
        whole suite's databases took 27 s of the suite's end, for data nobody reads again."""
        self.halt(signal.SIGQUIT)
        shutil.rmtree(self.folder, ignore_errors=True)


class PsqlSession:
    """A psql process kept open, for a transaction that holds locks while a test acts."""

    def __init__(self, cluster: PostgresCluster, database: str) -> None:
        self.process = subprocess.Popen(
            [str(PG_BIN / "psql"), "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1",
             "-p", str(cluster.port), "-U", "postgres", "-d", database],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)

    def run(self, sql: str) -> str:
        """Sends SQL and waits for a marker line after it, so the statement has run."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(f"{sql}\n\\echo __done__\n")
        self.process.stdin.flush()
        out = []
        for line in self.process.stdout:
            if line.strip() == "__done__":
                return "".join(out)
            out.append(line)
        raise RuntimeError(f"psql ended: {''.join(out)}")

    def close(self) -> None:
        if self.process.poll() is None:
            assert self.process.stdin is not None
            self.process.stdin.close()
            self.process.wait(timeout=30)


class Keys:
    """A signing key pair like an app's backend keeps; the service gets `public_pem`."""

    def __init__(self, folder: Path, kind: str = "rsa") -> None:
        self.kind = kind
        if kind == "rsa":
            self.private = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        else:
            self.private = ec.generate_private_key(ec.SECP256R1())
        self.public_pem = folder / f"jwt-{kind}.pem"
        self.public_pem.write_bytes(self.private.public_key().public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo))
        self.public_pem.chmod(0o644)

    def token(self, sub: str | None = "ann", expires_in: float | None = 3600, **claims: Any) -> str:
        payload: dict[str, Any] = dict(claims)
        if sub is not None:
            payload["sub"] = sub
        if expires_in is not None:
            payload["exp"] = int(time.time() + expires_in)
        alg = "RS256" if self.kind == "rsa" else "ES256"
        signing_input = f"{b64url(json.dumps({'alg': alg, 'typ': 'JWT'}).encode())}.{b64url(json.dumps(payload).encode())}"
        if self.kind == "rsa":
            assert isinstance(self.private, rsa.RSAPrivateKey)
            signature = self.private.sign(signing_input.encode(), padding.PKCS1v15(), hashes.SHA256())
        else:
            assert isinstance(self.private, ec.EllipticCurvePrivateKey)
            from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature
            r, s = decode_dss_signature(self.private.sign(signing_input.encode(), ec.ECDSA(hashes.SHA256())))
            signature = r.to_bytes(32, "big") + s.to_bytes(32, "big")
        return f"{signing_input}.{b64url(signature)}"


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def service_binary() -> Path:
    given = os.environ.get("DRUMLIN_SYNC_BINARY")
    if given:
        return Path(given)
    bin_path = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, capture_output=True, text=True,
                              check=True).stdout.strip()
    return Path(bin_path) / "drumlin-sync"


def run_service_command(args: list[str], env: dict[str, str] | None = None,
                        timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(service_binary()), *args], capture_output=True, text=True, timeout=timeout,
                          env=dict(os.environ, **(env or {})))


class SyncService:
    """One `drumlin-sync serve` process."""

    def __init__(self, postgres_url: str, keys: Keys, log_folder: Path, *extra: str, port: int | None = None) -> None:
        """`port`: listen there (a restart where a killed instance was, for its clients); else a free one."""
        self.port = port or free_port()
        self.log = log_folder / f"drumlin-sync-{self.port}.log"
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                [str(service_binary()), "serve", "--postgres", postgres_url, "--listen", f"127.0.0.1:{self.port}",
                 "--jwt-public-key", str(keys.public_pem), *extra],
                stdout=log, stderr=subprocess.STDOUT)
        self.wait_until_healthy()

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/sync"

    def http(self, path: str) -> tuple[int, str]:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{path}", timeout=10) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    def wait_until_healthy(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"drumlin-sync exited with {self.process.returncode}: {self.log.read_text()[-3000:]}")
            try:
                if self.http("/health")[0] == 200:
                    return
            except OSError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"drumlin-sync did not become healthy: {self.log.read_text()[-3000:]}")

    def running(self) -> bool:
        return self.process.poll() is None

    def kill(self) -> None:
        self.process.kill()
        self.process.wait()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def log_records(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.log.read_text().splitlines() if line.startswith("{")]
