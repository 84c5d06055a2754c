"""A protocol-level client of drumlin-sync (docs/sync-protocol.md), for tests until the engine's own
client exists. It speaks protocol 1 frame by frame, with the `websockets` package's synchronous
client, and can send what a correct client never would (a malformed frame, a 100 MB frame)."""

from __future__ import annotations

import json
from ssl import SSLContext
from typing import Any

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Subprotocol

SUBPROTOCOL = Subprotocol("drumlin-sync.1")


class Closed(Exception):
    """The service closed the connection: the error frame it sent first (if any) and the close code."""

    def __init__(self, error: dict[str, Any] | None, code: int | None, reason: str) -> None:
        super().__init__(f"closed {code} {reason}: {error}")
        self.error = error
        self.code = code
        self.reason = reason


class SyncClient:
    def __init__(self, url: str, subprotocols: list[Subprotocol] | None = None,
                 ssl: SSLContext | None = None) -> None:
        self.connection: ClientConnection = connect(
            url, subprotocols=[SUBPROTOCOL] if subprotocols is None else subprotocols, max_size=None,
            open_timeout=20, close_timeout=5, ssl=ssl).__enter__()

    def __enter__(self) -> "SyncClient":
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        self.connection.close()

    def send(self, frame: dict[str, Any] | str | bytes) -> None:
        self.connection.send(frame if isinstance(frame, (str, bytes)) else json.dumps(frame))

    def receive(self, timeout: float = 60) -> dict[str, Any]:
        """The next frame; an error frame and the close after it raise `Closed`."""
        try:
            frame = json.loads(self.connection.recv(timeout=timeout))
        except ConnectionClosed as closed:
            raise Closed(None, closed.rcvd.code if closed.rcvd else None,
                         closed.rcvd.reason if closed.rcvd else "") from None
        if frame.get("type") == "error":
            code, reason = self.wait_closed()
            raise Closed(frame, code, reason)
        return frame  # type: ignore[no-any-return]

    def wait_closed(self, timeout: float = 30) -> tuple[int | None, str]:
        try:
            while True:
                self.connection.recv(timeout=timeout)
        except ConnectionClosed as closed:
            return (closed.rcvd.code, closed.rcvd.reason) if closed.rcvd else (None, "")

    def hello(self, token: str, client_id: str, schema: list[dict[str, Any]]) -> dict[str, Any]:
        self.send({"type": "hello", "token": token, "clientId": client_id, "schema": schema})
        return self.receive()

    def upload(self, seq: int, inserts: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
        self.send_upload(seq, inserts)
        return self.receive()

    def send_upload(self, seq: int, inserts: dict[str, list[dict[str, Any]]]) -> None:
        self.send({"type": "upload", "seq": seq,
                   "inserts": [{"class": name, "objects": objects} for name, objects in inserts.items()]})
