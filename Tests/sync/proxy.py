"""Network faults between a sync client and drumlin-sync, for client-side fault tests.

`Proxy(target_port)` listens on a free port of 127.0.0.1 and forwards every connection it accepts to
the target (a `SyncService`'s port), one thread per connection, counting the bytes each way
(`bytes_up`: client to service, `bytes_down`: service to client) and the connections accepted
(`connections`). A test breaks the path on purpose:

- `cut()`: closes both sides of every open connection at once (the client sees EOF or a reset,
  the service a vanished client); new connections are forwarded as before.
- `cut_after_up(n)`: forwards n more client bytes, then cuts: with n smaller than a frame, the
  service receives half an upload (a cut mid-batch).
- `cut_on_down()`: cuts when the service next sends anything, dropping it (a lost ack: the batch
  is committed, the client never hears so).
- `black_hole()`: stops reading and forwarding on every connection, open or new, without closing
  any (a dead path: nothing arrives, nothing fails, until a keepalive notices); `cut()` ends them
  and forwards new connections again.

`Proxy(target_port, tls_folder=...)` also terminates TLS: clients connect with `wss://` to
`proxy.url()` and trust `proxy.ca_file`, a throwaway CA (Tests/sync/websocket_peer.py makes it)
that signed a certificate for 127.0.0.1 and localhost; `proxy.ssl_context()` is a client context
that trusts it. The service behind it speaks plain `ws`, as it does behind a real load balancer.

The fixture `proxies` (conftest.py) starts them and stops them after the test. Tests of the proxy
itself, with the protocol client of syncclient.py: test_proxy.py.
"""

from __future__ import annotations

import select
import socket
import ssl
import threading
from pathlib import Path

from websocket_peer import write_certificates


class Proxy:
    def __init__(self, target_port: int, tls_folder: Path | None = None) -> None:
        self.target_port = target_port
        self.lock = threading.Lock()
        self.bytes_up = 0
        self.bytes_down = 0
        self.connections = 0
        self.pairs: list[Pair] = []
        self.up_budget: int | None = None
        self.cut_down = False
        self.holed = False
        self.server_context: ssl.SSLContext | None = None
        self.ca_file: Path | None = None
        if tls_folder is not None:
            tls_folder.mkdir(parents=True, exist_ok=True)
            chain, key = write_certificates(tls_folder)
            self.ca_file = tls_folder / "ca.pem"
            self.server_context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            self.server_context.load_cert_chain(chain, key)
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(64)
        self.port: int = self.listener.getsockname()[1]
        self.running = True
        self.thread = threading.Thread(target=self.accept_loop, daemon=True)
        self.thread.start()

    def url(self, path: str = "/sync", host: str = "127.0.0.1") -> str:
        return f"{'wss' if self.server_context else 'ws'}://{host}:{self.port}{path}"

    def ssl_context(self) -> ssl.SSLContext:
        """A client context that trusts this proxy's CA."""
        assert self.ca_file is not None, "not a TLS proxy"
        return ssl.create_default_context(cafile=str(self.ca_file))

    # ---- faults -------------------------------------------------------------------------------

    def cut(self) -> None:
        with self.lock:
            pairs, self.pairs = self.pairs, []
            self.holed = False
        for pair in pairs:
            pair.close()

    def cut_after_up(self, n: int) -> None:
        with self.lock:
            self.up_budget = n

    def cut_on_down(self) -> None:
        with self.lock:
            self.cut_down = True

    def black_hole(self) -> None:
        with self.lock:
            self.holed = True

    def stop(self) -> None:
        self.running = False
        self.listener.close()
        self.cut()

    # ---- forwarding ---------------------------------------------------------------------------

    def accept_loop(self) -> None:
        while self.running:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self.serve, args=(client,), daemon=True).start()

    def serve(self, client: socket.socket) -> None:
        try:
            if self.server_context is not None:
                client.settimeout(30)
                client = self.server_context.wrap_socket(client, server_side=True)
                client.settimeout(None)
            service = socket.create_connection(("127.0.0.1", self.target_port), timeout=30)
            service.settimeout(None)
        except (OSError, ssl.SSLError):
            client.close()
            return
        pair = Pair(client, service)
        with self.lock:
            if not self.running:
                pair.close()
                return
            self.connections += 1
            self.pairs.append(pair)
        pair.pump(self)


class Pair:
    """One client connection and its connection to the service, pumped by one thread (a TLS
    socket is never read and written from two threads at once)."""

    def __init__(self, client: socket.socket, service: socket.socket) -> None:
        self.client = client
        self.service = service
        self.closed = threading.Event()

    def close(self) -> None:
        if self.closed.is_set():
            return
        self.closed.set()
        for s in (self.client, self.service):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            s.close()

    def pump(self, proxy: Proxy) -> None:
        try:
            while not self.closed.is_set():
                with proxy.lock:
                    holed = proxy.holed
                if holed:
                    self.closed.wait(0.05)
                    continue
                pending = isinstance(self.client, ssl.SSLSocket) and self.client.pending() > 0
                readable = [self.client] if pending else \
                    select.select([self.client, self.service], [], [], 0.05)[0]
                with proxy.lock:
                    if proxy.holed:     # black-holed while waiting: what arrived stays unread
                        continue
                for source in readable:
                    if self.closed.is_set():
                        return
                    data = source.recv(65536)
                    if not data:
                        self.close()
                        return
                    if not self.forward(proxy, data, up=source is self.client):
                        return
        except (OSError, ValueError):
            self.close()
        finally:
            with proxy.lock:
                if self in proxy.pairs:
                    proxy.pairs.remove(self)

    def forward(self, proxy: Proxy, data: bytes, up: bool) -> bool:
        """Forwards data, applying the proxy's armed faults; False once the pair is closed."""
        cut = False
        with proxy.lock:
            if up and proxy.up_budget is not None:
                data, cut = data[:proxy.up_budget], len(data) >= proxy.up_budget
                proxy.up_budget -= len(data)
                if cut:
                    proxy.up_budget = None
            if not up and proxy.cut_down:
                proxy.cut_down = False
                data, cut = b"", True
            if up:
                proxy.bytes_up += len(data)
            else:
                proxy.bytes_down += len(data)
        if data:
            (self.service if up else self.client).sendall(data)
        if cut:
            proxy.cut()
            return False
        return True
