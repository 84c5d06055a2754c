"""Data Ingest (docs/sync.md): a database opened with ``sync=SyncConfig(...)`` uploads its
asymmetric objects to a ``drumlin-sync`` service from a thread of its own.

    db = drumlin.open("app.drumlin", schema, sync=drumlin.SyncConfig(url="wss://...", token=get_token))
    with db.write():
        db.create("Reading", {...})          # queued in the same transaction
    db.sync.wait_for_upload(timeout=10)      # acknowledged by the service, gone from the file

Callbacks (``token``, ``on_error``, ``on_progress``) run on the sync thread. An exception from
one never stops the session: it is logged on the ``drumlin`` logger (and a token callback that
raises or returns something else than a non-empty string counts as no token, retried with
backoff). The corresponding C functions are ``drumlin_options_set_sync`` and ``drumlin_sync_*``.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from ctypes import byref, c_int, c_int64
from dataclasses import dataclass
from typing import Any, Literal

from . import _ffi
from ._errors import InvalidArgumentError, TypeMismatchError

_log = logging.getLogger("drumlin")

SyncState = Literal["disconnected", "connecting", "connected"]
_STATES: dict[int, SyncState] = {
    _ffi.DRUMLIN_SYNC_DISCONNECTED: "disconnected",
    _ffi.DRUMLIN_SYNC_CONNECTING: "connecting",
    _ffi.DRUMLIN_SYNC_CONNECTED: "connected",
}


@dataclass(frozen=True)
class SyncErrorInfo:
    """An error the session reports: Realm's ``code`` and ``name`` (203 ``bad_authentication``,
    227 ``object_already_exists``; 0 and a client-side name such as ``no_token`` for the
    client's own), the ``message``, Realm's ``action``, and whether the session ``stopped`` on it
    (until ``db.sync.resume()``)."""

    code: int
    name: str
    message: str
    action: str
    stopped: bool


@dataclass(frozen=True)
class SyncProgress:
    """The session's state: connection ``state``, ``paused``, objects ``uploaded`` (acknowledged
    since the database was opened) and ``pending`` (still waiting in the file)."""

    state: SyncState
    paused: bool
    uploaded: int
    pending: int


@dataclass(frozen=True)
class SyncConfig:
    """How a database syncs: the service's ``url`` (``ws://`` or ``wss://``), ``token`` (a
    function returning a JWT from the app's backend, asked before each connection), ``ca_file``
    (a PEM file of CA certificates for ``wss://``; None: the system's), and the optional
    ``on_error(SyncErrorInfo)`` and ``on_progress(SyncProgress)`` callbacks."""

    url: str
    token: Callable[[], str]
    ca_file: str | os.PathLike[str] | None = None
    on_error: Callable[[SyncErrorInfo], object] | None = None
    on_progress: Callable[[SyncProgress], object] | None = None


def _text(value: bytes | None) -> str:
    return value.decode("utf-8", "replace") if value else ""


class _Callbacks:
    """The ctypes callbacks of one open database, kept alive as long as it is."""

    def __init__(self, config: SyncConfig) -> None:
        self.config = config

        def token(_userdata: Any, request: Any) -> None:
            try:
                value = config.token()
                if not isinstance(value, str) or not value:
                    _log.warning("sync: the token function returned %r, not a non-empty string", type(value).__name__)
                    return
                _ffi.drumlin_sync_token_set(request, value.encode("utf-8"))
            except BaseException:  # never into the sync thread
                _log.exception("sync: the token function raised")

        def progress(_userdata: Any, state: int, paused: int, uploaded: int, pending: int) -> None:
            if config.on_progress is None:
                return
            try:
                config.on_progress(SyncProgress(_STATES.get(state, "disconnected"), bool(paused), uploaded, pending))
            except BaseException:
                _log.exception("sync: the on_progress callback raised")

        def error(_userdata: Any, code: int, name: bytes | None, message: bytes | None, action: bytes | None,
                  stopped: int) -> None:
            if config.on_error is None:
                return
            try:
                config.on_error(SyncErrorInfo(code, _text(name), _text(message), _text(action), bool(stopped)))
            except BaseException:
                _log.exception("sync: the on_error callback raised")

        self.token = _ffi.drumlin_sync_token_fn(token)
        self.progress = _ffi.drumlin_sync_progress_fn(progress)
        self.error = _ffi.drumlin_sync_error_fn(error)


def configure(options: Any, config: SyncConfig | None) -> _Callbacks | None:
    """Sets the sync options of an open call; the callbacks to keep while the database is open."""
    if config is None:
        return None
    if not isinstance(config, SyncConfig):
        raise TypeMismatchError(f"sync must be a drumlin.SyncConfig, not {type(config).__name__}")
    if not isinstance(config.url, str):
        raise TypeMismatchError(f"SyncConfig.url must be a str, not {type(config.url).__name__}")
    if not callable(config.token):
        raise TypeMismatchError(f"SyncConfig.token must be a function, not {type(config.token).__name__}")
    for name in ("on_error", "on_progress"):
        value = getattr(config, name)
        if value is not None and not callable(value):
            raise TypeMismatchError(f"SyncConfig.{name} must be a function or None, not {type(value).__name__}")
    if "\0" in config.url:
        raise InvalidArgumentError("SyncConfig.url cannot contain NUL characters")
    callbacks = _Callbacks(config)
    no_free = _ffi.drumlin_free_fn()
    _ffi.drumlin_options_set_sync(options, config.url.encode("utf-8"), callbacks.token, None, no_free)
    if config.ca_file is not None:
        _ffi.drumlin_options_set_sync_ca_file(options, os.fsencode(config.ca_file))
    _ffi.drumlin_options_set_sync_callbacks(options, callbacks.progress, callbacks.error, None, no_free)
    return callbacks


class Sync:
    """``db.sync``: the database's sync session (Realm's ``SyncSession``)."""

    __slots__ = ("_db",)

    def __init__(self, db: Any) -> None:
        self._db = db

    def wait_for_upload(self, timeout: float | None = None) -> None:
        """Wait until every object queued in the file has been acknowledged by the service.
        :class:`SyncTimeoutError` when ``timeout`` seconds pass first (None: no limit);
        :class:`SyncError` when the session stopped on an error."""
        if timeout is None:
            milliseconds = -1
        elif isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or timeout != timeout:
            raise TypeMismatchError(f"timeout must be a number of seconds or None, not {timeout!r}")
        elif timeout < 0:
            raise InvalidArgumentError(f"timeout must not be negative, got {timeout}")
        else:
            milliseconds = min(int(timeout * 1000), 2**62)
        _ffi.drumlin_sync_wait_for_upload(self._db._ptr(), milliseconds)

    def pause(self) -> None:
        """Close the connection and stop uploading (objects keep queueing), as Realm's suspend()."""
        _ffi.drumlin_sync_pause(self._db._ptr())

    def resume(self) -> None:
        """Resume a paused session, or one stopped on an error: it connects at once."""
        _ffi.drumlin_sync_resume(self._db._ptr())

    @property
    def progress(self) -> SyncProgress:
        state, paused, uploaded, pending = c_int(), c_int(), c_int64(), c_int64()
        _ffi.drumlin_sync_state(self._db._ptr(), byref(state), byref(paused), byref(uploaded), byref(pending))
        return SyncProgress(_STATES.get(state.value, "disconnected"), bool(paused.value), uploaded.value, pending.value)

    @property
    def state(self) -> SyncState:
        """``"disconnected"``, ``"connecting"`` or ``"connected"``."""
        return self.progress.state

    @property
    def paused(self) -> bool:
        return self.progress.paused


__all__ = ["Sync", "SyncConfig", "SyncErrorInfo", "SyncProgress", "SyncState"]
