/* Drumlin — SPDX-License-Identifier: Apache-2.0 (see LICENSE)
 *
 * A blocking, single-owner WebSocket client connection over libwebsockets, for the sync client
 * (Sources/DrumlinSyncTransport wraps it for Swift). Each connection owns its own lws context, so
 * two connections in one process share nothing. One thread (the owner) calls connect, send and
 * receive; dws_wake and dws_close may be called from any thread. libwebsockets' callbacks stay
 * inside drumlin_websocket.c. Nothing here is exported from libdrumlin.so (its version script
 * exports drumlin_* only). */
#ifndef DRUMLIN_WEBSOCKET_H
#define DRUMLIN_WEBSOCKET_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct dws_connection dws_connection;

/* What a call ended with. DWS_OK and DWS_NOTHING are not errors. */
typedef enum {
    DWS_OK = 0,
    DWS_NOTHING = 1,            /* receive: no message before the timeout, or woken */
    DWS_ERR_CONNECT_FAILED = 2, /* DNS, TCP, TLS: message says which */
    DWS_ERR_HANDSHAKE_REJECTED = 3, /* the server answered the upgrade with another HTTP status */
    DWS_ERR_CLOSED = 4,         /* the peer's close frame: code and reason */
    DWS_ERR_CONNECTION_LOST = 5,/* EOF, reset, missing pong, closed locally */
    DWS_ERR_MESSAGE_TOO_LARGE = 6, /* size: the message's size as far as known */
    DWS_ERR_TIMED_OUT = 7,      /* connect and upgrade took longer than the timeout */
    DWS_ERR_INVALID = 8         /* bad options (message says which) */
} dws_status;

typedef struct {
    dws_status status;
    int code;          /* DWS_ERR_CLOSED: the close code; HANDSHAKE_REJECTED: the HTTP status */
    size_t size;       /* DWS_ERR_MESSAGE_TOO_LARGE: the message's size */
    char message[512]; /* a sentence; HANDSHAKE_REJECTED: the response body (up to 511 bytes) */
} dws_error;

typedef struct {
    const char *host;          /* DNS name or IP address */
    int port;
    const char *path;          /* starts with '/' (with the query, if any) */
    int tls;                   /* 1: wss (TLS through OpenSSL, the server's certificate verified) */
    const char *subprotocol;   /* Sec-WebSocket-Protocol */
    const char *const *header_names;   /* extra request headers */
    const char *const *header_values;
    size_t header_count;
    const char *ca_file;       /* PEM bundle of trusted CAs for wss; NULL: the system's roots */
    int connect_timeout_ms;    /* DNS, TCP, TLS and upgrade together */
    size_t max_message_bytes;  /* a larger incoming message fails receive, unbuffered */
    int ping_interval_ms;      /* a ping after this long without traffic from the peer */
    int pong_timeout_ms;       /* no pong (or any frame) this long after a ping: connection lost */
} dws_options;

/* Connects (blocking at most connect_timeout_ms). On success *out is the connection; otherwise
 * *out is NULL and err says why. */
dws_status dws_connect(const dws_options *options, dws_connection **out, dws_error *err);

/* Sends one text message; returns when it is handed to the socket. */
dws_status dws_send_text(dws_connection *c, const uint8_t *data, size_t length, dws_error *err);

/* The next whole text message (malloc'd into *data, *length; the caller frees it) or DWS_NOTHING
 * after timeout_ms or a dws_wake. A wake that arrives while no receive is blocked makes the next
 * receive return DWS_NOTHING at once (a wake is never lost). */
dws_status dws_receive(dws_connection *c, int timeout_ms, uint8_t **data, size_t *length, dws_error *err);

/* Any thread: a blocked dws_receive returns DWS_NOTHING now. */
void dws_wake(dws_connection *c);

/* Any thread, idempotent: sends a close frame with code and reason (briefly awaiting the peer's),
 * then frees the socket and the lws context. Later calls fail with DWS_ERR_CONNECTION_LOST. */
void dws_close(dws_connection *c, uint16_t code, const char *reason);

/* Frees the connection (closing it first with 1000 if still open). No other call may be running
 * or follow. */
void dws_free(dws_connection *c);

#ifdef __cplusplus
}
#endif

#endif
