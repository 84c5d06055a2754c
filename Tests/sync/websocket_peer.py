"""A WebSocket peer for the transport's Swift tests (Tests/DrumlinSyncTransportTests): one server
process per test, started as `python3 websocket_peer.py MODE FOLDER`, which prints its port on the
first line of stdout and serves until killed.

Modes:
- `echo`: the `websockets` package's server (subprotocol drumlin-sync.1). A text message is echoed,
  except the commands `close:<code>:<reason>` (the server closes with that code and reason),
  `send:<n>` (the server sends one message of n bytes of "x"), `drop` (the server cuts the TCP
  connection without a close frame) and `headers` (the server answers with the request's headers,
  one `name: value` line each).
- `tls`: `echo` over TLS, with a certificate for 127.0.0.1 and localhost signed by a throwaway CA
  written to FOLDER/ca.pem; FOLDER/other-ca.pem is a CA that signed nothing.
- `reject`: every upgrade is answered `400 Bad Request` with the body `no sync here: <path>`.
- `silent`: accepts TCP connections and never sends a byte.
- `mute`: completes the upgrade by hand, then never sends anything again (no pong).
"""

from __future__ import annotations

import base64
import datetime
import hashlib
import http
import ipaddress
import socket
import ssl
import sys
import threading
from collections.abc import Callable
from pathlib import Path

from websockets.exceptions import ConnectionClosed
from websockets.sync.server import ServerConnection, serve


def echo(connection: ServerConnection) -> None:
    try:
        serve_messages(connection)
    except ConnectionClosed:
        pass    # the client closed with a code of its own (or not at all): nothing to report


def serve_messages(connection: ServerConnection) -> None:
    for message in connection:
        text = message if isinstance(message, str) else message.decode()
        if text.startswith("close:"):
            _, code, reason = text.split(":", 2)
            connection.close(int(code), reason)
            return
        if text.startswith("send:"):
            connection.send("x" * int(text[5:]))
        elif text == "drop":
            connection.socket.shutdown(socket.SHUT_RDWR)
            connection.socket.close()
            return
        elif text == "headers":
            assert connection.request is not None
            connection.send("\n".join(f"{name}: {value}" for name, value in connection.request.headers.raw_items()))
        else:
            connection.send(text)


def write_certificates(folder: Path) -> tuple[Path, Path]:
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    now = datetime.datetime.now(datetime.timezone.utc)

    def make_ca(name: str) -> tuple[ec.EllipticCurvePrivateKey, x509.Certificate]:
        key = ec.generate_private_key(ec.SECP256R1())
        subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
        cert = (x509.CertificateBuilder().subject_name(subject).issuer_name(subject).public_key(key.public_key())
                .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(hours=1))
                .not_valid_after(now + datetime.timedelta(days=1))
                .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
                .add_extension(x509.KeyUsage(digital_signature=True, content_commitment=False, key_encipherment=False,
                                             data_encipherment=False, key_agreement=False, key_cert_sign=True,
                                             crl_sign=True, encipher_only=False, decipher_only=False), critical=True)
                .sign(key, hashes.SHA256()))
        return key, cert

    ca_key, ca_cert = make_ca("Drumlin test CA")
    _, other_cert = make_ca("Drumlin other CA")
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (x509.CertificateBuilder()
            .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")]))
            .issuer_name(ca_cert.subject).public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(hours=1)).not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost"),
                                                        x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
                           critical=False)
            .sign(ca_key, hashes.SHA256()))
    pem = serialization.Encoding.PEM
    (folder / "ca.pem").write_bytes(ca_cert.public_bytes(pem))
    (folder / "other-ca.pem").write_bytes(other_cert.public_bytes(pem))
    chain = folder / "server.pem"
    chain.write_bytes(cert.public_bytes(pem))
    private = folder / "server-key.pem"
    private.write_bytes(key.private_bytes(pem, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    return chain, private


def serve_raw(listener: socket.socket, handle: Callable[[socket.socket], None]) -> None:
    while True:
        client, _ = listener.accept()
        threading.Thread(target=handle, args=(client,), daemon=True).start()


def silent(client: socket.socket) -> None:
    while client.recv(65536):
        pass


def mute(client: socket.socket) -> None:
    request = b""
    while b"\r\n\r\n" not in request:
        chunk = client.recv(65536)
        if not chunk:
            return
        request += chunk
    key = next(line.split(b":", 1)[1].strip() for line in request.split(b"\r\n")
               if line.lower().startswith(b"sec-websocket-key:"))
    accept = base64.b64encode(hashlib.sha1(key + b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11").digest())
    client.sendall(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                   b"Sec-WebSocket-Protocol: drumlin-sync.1\r\nSec-WebSocket-Accept: " + accept + b"\r\n\r\n")
    while client.recv(65536):
        pass


def main() -> None:
    mode, folder = sys.argv[1], Path(sys.argv[2])
    if mode in ("silent", "mute"):
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)
        print(listener.getsockname()[1], flush=True)
        serve_raw(listener, silent if mode == "silent" else mute)
        return
    context = None
    if mode == "tls":
        chain, private = write_certificates(folder)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(chain, private)

    def refuse(connection: ServerConnection, request: object) -> object:
        if mode == "reject":
            return connection.respond(http.HTTPStatus.BAD_REQUEST, f"no sync here: {request.path}")  # type: ignore[attr-defined]
        return None

    with serve(echo, "127.0.0.1", 0, subprotocols=["drumlin-sync.1"], ssl=context, max_size=None,  # type: ignore[list-item]
               process_request=refuse) as server:
        print(server.socket.getsockname()[1], flush=True)
        server.serve_forever()


if __name__ == "__main__":
    main()
