/* Drumlin — SPDX-License-Identifier: Apache-2.0 (see LICENSE)
 *
 * The blocking WebSocket connection of drumlin_websocket.h over libwebsockets 4.1 (docs/sync.md,
 * "The client's transport").
 *
 * - One lws context per connection, serviced only by the thread inside a call (the owner in
 *   connect/send/receive, or dws_close). lws_service() ignores its timeout argument in 4.1 and
 *   waits for its next scheduled event, so every wait is bounded by a scheduled timer (`timer`)
 *   whose callback also cancels the poll, so a timer that fires before the poll cannot leave it
 *   waiting.
 * - Two locks: `service_lock` is held by whoever services the context; `state_lock` guards the
 *   context pointer for dws_wake (lws_cancel_service is lws's thread-safe wake) and the wake and
 *   close requests. dws_close from another thread asks the owner to leave lws_service, then takes
 *   `service_lock` and tears down.
 * - lws's TLS setup keeps process-wide state: each context's OpenSSL init allocates a new ex_data
 *   index into one global that the certificate verify callback reads during the TLS handshake.
 *   So contexts are created and destroyed under `global_lock`, and a wss connection holds it until
 *   its handshake is over: concurrent wss connects are serialized, never confused.
 * - SIGPIPE: lws sends plain sockets with MSG_NOSIGNAL, but OpenSSL writes with write(2). Every
 *   call that may write blocks SIGPIPE in the calling thread and consumes one raised meanwhile,
 *   so the host process's handler and disposition are never involved.
 */
#define _GNU_SOURCE
#include "drumlin_websocket.h"

#include <libwebsockets.h>
#include <netdb.h>
#include <openssl/x509.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct dws_message {
    struct dws_message *next;
    uint8_t *data;
    size_t length;
} dws_message;

struct dws_connection {
    pthread_mutex_t service_lock;
    pthread_mutex_t state_lock;
    struct lws_context *context;   /* NULL once closed */
    struct lws *wsi;               /* NULL once lws ended the connection */
    lws_sorted_usec_list_t timer;
    struct lws_protocols protocols[2];
    int wake_pending;
    int close_requested;

    /* options */
    char *host_port;               /* "host:port", for messages */
    char **header_names;
    char **header_values;
    size_t header_count;
    size_t max_message_bytes;
    int64_t ping_interval_us;
    int64_t pong_timeout_us;

    /* connect */
    int established;
    int http_status;               /* the upgrade's answer when it was not 101 */
    char body[sizeof(((dws_error *)0)->message)];
    size_t body_length;
    char tls_problem[200];         /* why the server's certificate failed verification */

    /* the first error; every later call reports it */
    int failed;
    dws_error error;

    /* receive */
    uint8_t *rx;
    size_t rx_length, rx_capacity;
    dws_message *head, *tail;
    int64_t last_rx_us;
    int64_t ping_sent_us;
    int ping_wanted, ping_outstanding;

    /* send */
    uint8_t *tx;                   /* LWS_PRE bytes of room, then the message */
    size_t tx_length;
    int tx_pending;

    /* close */
    int close_wanted;
    uint16_t close_code;
    char close_reason[124];        /* a close frame's reason is at most 123 bytes */
};

static pthread_mutex_t global_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t log_once = PTHREAD_ONCE_INIT;

static void quiet_logging(void) { lws_set_log_level(0, NULL); }

static int64_t now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000 + t.tv_nsec / 1000;
}

static void set_error(dws_connection *c, dws_status status, int code, size_t size, const char *format, ...)
    __attribute__((format(printf, 5, 6)));

static void set_error(dws_connection *c, dws_status status, int code, size_t size, const char *format, ...) {
    if (c->failed) return;
    c->failed = 1;
    c->error.status = status;
    c->error.code = code;
    c->error.size = size;
    va_list args;
    va_start(args, format);
    vsnprintf(c->error.message, sizeof c->error.message, format, args);
    va_end(args);
}

static void report(dws_error *err, dws_status status, int code, const char *format, ...)
    __attribute__((format(printf, 4, 5)));

static void report(dws_error *err, dws_status status, int code, const char *format, ...) {
    if (err == NULL) return;
    err->status = status;
    err->code = code;
    err->size = 0;
    va_list args;
    va_start(args, format);
    vsnprintf(err->message, sizeof err->message, format, args);
    va_end(args);
}

/* ---- SIGPIPE ------------------------------------------------------------------------------ */

typedef struct {
    sigset_t old;
    int was_pending;
} pipe_guard;

static void pipe_block(pipe_guard *g) {
    sigset_t pipe, pending;
    sigemptyset(&pipe);
    sigaddset(&pipe, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe, &g->old);
    sigpending(&pending);
    g->was_pending = sigismember(&pending, SIGPIPE);
}

static void pipe_restore(pipe_guard *g) {
    if (!g->was_pending) {
        sigset_t pipe, pending;
        sigemptyset(&pipe);
        sigaddset(&pipe, SIGPIPE);
        sigpending(&pending);
        if (sigismember(&pending, SIGPIPE)) {
            struct timespec zero = {0, 0};
            sigtimedwait(&pipe, NULL, &zero);
        }
    }
    pthread_sigmask(SIG_SETMASK, &g->old, NULL);
}

/* ---- servicing ---------------------------------------------------------------------------- */

static void timer_fired(lws_sorted_usec_list_t *sul) {
    dws_connection *c = lws_container_of(sul, dws_connection, timer);
    lws_cancel_service(c->context);
}

/* One round of lws_service, returning by `deadline_us` at the latest (or at a wake, a close
 * request or any network event). */
static void service_until(dws_connection *c, int64_t deadline_us) {
    int64_t wait = deadline_us - now_us();
    if (wait < 1000) wait = 1000;
    pipe_guard guard;
    pipe_block(&guard);
    lws_sul_schedule(c->context, 0, &c->timer, timer_fired, wait);
    lws_service(c->context, 0);
    lws_sul_cancel(&c->timer);
    pipe_restore(&guard);
}

/* Asks for a ping when the peer has been silent for the ping interval; fails the connection when
 * a ping got no pong (nor any other frame) within the pong timeout. Returns when it next matters. */
static int64_t keepalive(dws_connection *c, int64_t now) {
    if (c->wsi == NULL || c->failed) return now + c->ping_interval_us;
    if (c->ping_outstanding) {
        int64_t due = c->ping_sent_us + c->pong_timeout_us;
        if (now >= due) {
            set_error(c, DWS_ERR_CONNECTION_LOST, 0, 0, "no answer from %s to a ping within %lld ms",
                      c->host_port, (long long)(c->pong_timeout_us / 1000));
        }
        return due;
    }
    int64_t due = c->last_rx_us + c->ping_interval_us;
    if (now >= due && !c->ping_wanted) {
        c->ping_wanted = 1;
        lws_callback_on_writable(c->wsi);
    }
    return now >= due ? now + c->pong_timeout_us : due;
}

static void free_messages(dws_connection *c) {
    while (c->head != NULL) {
        dws_message *m = c->head;
        c->head = m->next;
        free(m->data);
        free(m);
    }
    c->tail = NULL;
    free(c->rx);
    c->rx = NULL;
    c->rx_length = c->rx_capacity = 0;
    free(c->tx);
    c->tx = NULL;
    c->tx_pending = 0;
}

/* ---- lws's callback ----------------------------------------------------------------------- */

static int append_rx(dws_connection *c, const void *in, size_t len) {
    if (c->rx_length + len > c->rx_capacity) {
        size_t capacity = c->rx_capacity ? c->rx_capacity : 4096;
        while (capacity < c->rx_length + len) capacity *= 2;
        if (capacity > c->max_message_bytes) capacity = c->max_message_bytes;
        uint8_t *grown = realloc(c->rx, capacity ? capacity : 1);
        if (grown == NULL) return -1;
        c->rx = grown;
        c->rx_capacity = capacity;
    }
    if (len) memcpy(c->rx + c->rx_length, in, len);
    c->rx_length += len;
    return 0;
}

static int on_receive(dws_connection *c, struct lws *wsi, const void *in, size_t len) {
    if (lws_is_first_fragment(wsi)) c->rx_length = 0;
    if (lws_frame_is_binary(wsi)) {
        set_error(c, DWS_ERR_CONNECTION_LOST, 0, 0,
                  "%s sent a binary message; the protocol's messages are text", c->host_port);
        lws_close_reason(wsi, LWS_CLOSE_STATUS_UNACCEPTABLE_OPCODE, (unsigned char *)"text messages only", 18);
        return -1;
    }
    size_t known = c->rx_length + len + lws_remaining_packet_payload(wsi);
    if (known > c->max_message_bytes) {
        set_error(c, DWS_ERR_MESSAGE_TOO_LARGE, 0, known, "a message of %zu bytes from %s exceeds the limit of %zu",
                  known, c->host_port, c->max_message_bytes);
        lws_close_reason(wsi, LWS_CLOSE_STATUS_MESSAGE_TOO_LARGE, (unsigned char *)"message too large", 17);
        return -1;
    }
    if (append_rx(c, in, len) != 0) {
        set_error(c, DWS_ERR_CONNECTION_LOST, 0, 0, "out of memory for a message of %zu bytes", known);
        return -1;
    }
    if (lws_is_final_fragment(wsi)) {
        dws_message *m = malloc(sizeof *m);
        if (m == NULL) {
            set_error(c, DWS_ERR_CONNECTION_LOST, 0, 0, "out of memory for a message of %zu bytes", known);
            return -1;
        }
        m->next = NULL;
        m->data = c->rx;
        m->length = c->rx_length;
        if (m->data == NULL) m->data = malloc(1);
        c->rx = NULL;
        c->rx_length = c->rx_capacity = 0;
        if (c->tail) c->tail->next = m; else c->head = m;
        c->tail = m;
    }
    return 0;
}

static int on_writeable(dws_connection *c, struct lws *wsi) {
    if (c->close_wanted) {
        lws_close_reason(wsi, (enum lws_close_status)c->close_code, (unsigned char *)c->close_reason,
                         strlen(c->close_reason));
        return -1;
    }
    if (c->ping_wanted) {
        uint8_t ping[LWS_PRE + 1];
        c->ping_wanted = 0;
        if (lws_write(wsi, ping + LWS_PRE, 0, LWS_WRITE_PING) < 0) {
            set_error(c, DWS_ERR_CONNECTION_LOST, 0, 0, "writing a ping to %s failed", c->host_port);
            return -1;
        }
        c->ping_outstanding = 1;
        c->ping_sent_us = now_us();
        if (c->tx_pending) lws_callback_on_writable(wsi);
        return 0;
    }
    if (c->tx_pending) {
        c->tx_pending = 0;
        int n = lws_write(wsi, c->tx + LWS_PRE, c->tx_length, LWS_WRITE_TEXT);
        free(c->tx);
        c->tx = NULL;
        if (n < 0) {
            set_error(c, DWS_ERR_CONNECTION_LOST, 0, 0, "writing a message to %s failed", c->host_port);
            return -1;
        }
    }
    return 0;
}

/* lws's reasons for a failed connect, in words an app's log can use. */
static const char *explain(const char *reason) {
    if (reason == NULL) return "unknown error";
    if (strcmp(reason, "Unable to connect") == 0) return "the connection was refused or the host is unreachable";
    if (strstr(reason, "getaddrinfo") != NULL) return "the host name could not be resolved";
    if (strcmp(reason, "Peer hung up") == 0) return "the server closed the connection before the upgrade";
    return reason;
}

static int callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len) {
    struct lws_context *context = lws_get_context(wsi);
    dws_connection *c = context ? lws_context_user(context) : NULL;
    if (c == NULL) return 0;
    switch (reason) {
    case LWS_CALLBACK_CLIENT_APPEND_HANDSHAKE_HEADER: {
        unsigned char **p = (unsigned char **)in, *end = *p + len;
        for (size_t i = 0; i < c->header_count; i++) {
            if (lws_add_http_header_by_name(wsi, (const unsigned char *)c->header_names[i],
                                            (const unsigned char *)c->header_values[i],
                                            (int)strlen(c->header_values[i]), p, end)) {
                set_error(c, DWS_ERR_INVALID, 0, 0, "the request headers do not fit in %zu bytes", len);
                return -1;
            }
        }
        return 0;
    }
    case LWS_CALLBACK_ESTABLISHED_CLIENT_HTTP: {
        /* With a WebSocket upgrade this comes before lws checks for 101: the last moment at which
         * the body of a refusal can be read. */
        int status = (int)lws_http_client_http_response(wsi);
        if (status == 101) return 0;
        c->http_status = status;
        for (int round = 0; round < 16; round++) {
            size_t before = c->body_length;
            char buffer[1024], *p = buffer;
            int n = (int)sizeof buffer;
            if (lws_http_client_read(wsi, &p, &n) < 0 || c->body_length == before) break;
        }
        return -1;   /* lws reports CLIENT_CONNECTION_ERROR next */
    }
    case LWS_CALLBACK_RECEIVE_CLIENT_HTTP_READ: {
        size_t room = sizeof c->body - 1 - c->body_length;
        size_t n = len < room ? len : room;
        memcpy(c->body + c->body_length, in, n);
        c->body_length += n;
        c->body[c->body_length] = 0;
        return 0;
    }
    case LWS_CALLBACK_COMPLETED_CLIENT_HTTP:
        return c->http_status ? -1 : 0;   /* a refusal's body is read: no next transaction */
    case LWS_CALLBACK_OPENSSL_PERFORM_SERVER_CERT_VERIFICATION:
        /* user: the X509_STORE_CTX; len: OpenSSL's verdict. Only the reason is kept: the verdict
         * stands. */
        if (!len && !c->tls_problem[0]) {
            X509_STORE_CTX *store = user;
            snprintf(c->tls_problem, sizeof c->tls_problem, "the server's certificate failed verification: %s",
                     X509_verify_cert_error_string(X509_STORE_CTX_get_error(store)));
        }
        return 0;
    case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
        if (c->http_status && c->http_status != 101) {
            set_error(c, DWS_ERR_HANDSHAKE_REJECTED, c->http_status, 0, "%s", c->body);
        } else {
            set_error(c, DWS_ERR_CONNECT_FAILED, 0, 0, "connecting to %s failed: %s", c->host_port,
                      c->tls_problem[0] ? c->tls_problem : explain(in));
        }
        if (wsi == c->wsi) c->wsi = NULL;
        return 0;
    case LWS_CALLBACK_CLIENT_ESTABLISHED:
        c->established = 1;
        c->last_rx_us = now_us();
        return 0;
    case LWS_CALLBACK_CLIENT_RECEIVE:
        c->last_rx_us = now_us();
        c->ping_outstanding = 0;
        return on_receive(c, wsi, in, len);
    case LWS_CALLBACK_CLIENT_RECEIVE_PONG:
        c->last_rx_us = now_us();
        c->ping_outstanding = 0;
        return 0;
    case LWS_CALLBACK_CLIENT_WRITEABLE:
        return on_writeable(c, wsi);
    case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE: {
        const unsigned char *bytes = in;
        int code = len >= 2 ? (bytes[0] << 8 | bytes[1]) : LWS_CLOSE_STATUS_NO_STATUS;
        int reason_length = len > 2 ? (int)(len - 2) : 0;
        set_error(c, DWS_ERR_CLOSED, code, 0, "%.*s", reason_length, len > 2 ? (const char *)bytes + 2 : "");
        return 0;
    }
    case LWS_CALLBACK_CLIENT_CLOSED:
        if (!c->close_wanted) {
            set_error(c, DWS_ERR_CONNECTION_LOST, 0, 0, "the connection to %s ended without a close frame",
                      c->host_port);
        }
        if (wsi == c->wsi) c->wsi = NULL;
        return 0;
    case LWS_CALLBACK_WSI_DESTROY:
        if (wsi == c->wsi) c->wsi = NULL;
        return 0;
    default:
        return 0;
    }
}

/* ---- the API ------------------------------------------------------------------------------ */

static char *copy(const char *s) {
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

static void destroy_context(dws_connection *c) {
    pthread_mutex_lock(&c->state_lock);
    struct lws_context *context = c->context;
    c->context = NULL;
    pthread_mutex_unlock(&c->state_lock);
    if (context == NULL) return;
    pipe_guard guard;
    pipe_block(&guard);
    pthread_mutex_lock(&global_lock);
    lws_context_destroy(context);
    pthread_mutex_unlock(&global_lock);
    pipe_restore(&guard);
    c->wsi = NULL;
    free_messages(c);
}

static void free_connection(dws_connection *c) {
    for (size_t i = 0; i < c->header_count; i++) {
        free(c->header_names[i]);
        free(c->header_values[i]);
    }
    free(c->header_names);
    free(c->header_values);
    free(c->host_port);
    pthread_mutex_destroy(&c->service_lock);
    pthread_mutex_destroy(&c->state_lock);
    free(c);
}

dws_status dws_connect(const dws_options *o, dws_connection **out, dws_error *err) {
    *out = NULL;
    pthread_once(&log_once, quiet_logging);
    if (o->max_message_bytes == 0 || o->connect_timeout_ms <= 0 || o->ping_interval_ms <= 0 ||
        o->pong_timeout_ms <= 0) {
        report(err, DWS_ERR_INVALID, 0, "the timeouts and the message limit must be positive");
        return DWS_ERR_INVALID;
    }
    dws_connection *c = calloc(1, sizeof *c);
    if (c == NULL) {
        report(err, DWS_ERR_CONNECT_FAILED, 0, "out of memory");
        return DWS_ERR_CONNECT_FAILED;
    }
    pthread_mutex_init(&c->service_lock, NULL);
    pthread_mutex_init(&c->state_lock, NULL);
    c->max_message_bytes = o->max_message_bytes;
    c->ping_interval_us = (int64_t)o->ping_interval_ms * 1000;
    c->pong_timeout_us = (int64_t)o->pong_timeout_ms * 1000;
    size_t host_port_size = strlen(o->host) + 16;
    c->host_port = malloc(host_port_size);
    c->header_names = calloc(o->header_count + 1, sizeof(char *));
    c->header_values = calloc(o->header_count + 1, sizeof(char *));
    if (c->host_port == NULL || c->header_names == NULL || c->header_values == NULL) {
        free_connection(c);
        report(err, DWS_ERR_CONNECT_FAILED, 0, "out of memory");
        return DWS_ERR_CONNECT_FAILED;
    }
    snprintf(c->host_port, host_port_size, strchr(o->host, ':') ? "[%s]:%d" : "%s:%d", o->host, o->port);
    for (size_t i = 0; i < o->header_count; i++) {
        /* lws wants the name with its colon */
        size_t n = strlen(o->header_names[i]);
        c->header_names[i] = malloc(n + 2);
        c->header_values[i] = copy(o->header_values[i]);
        c->header_count = i + 1;
        if (c->header_names[i] == NULL || c->header_values[i] == NULL) {
            free_connection(c);
            report(err, DWS_ERR_CONNECT_FAILED, 0, "out of memory");
            return DWS_ERR_CONNECT_FAILED;
        }
        memcpy(c->header_names[i], o->header_names[i], n);
        memcpy(c->header_names[i] + n, ":", 2);
    }

    c->protocols[0].name = "drumlin-websocket";
    c->protocols[0].callback = callback;
    c->protocols[0].rx_buffer_size = 65536;
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.port = CONTEXT_PORT_NO_LISTEN;
    info.protocols = c->protocols;
    info.gid = -1;
    info.uid = -1;
    info.user = c;
    info.fd_limit_per_thread = 16;
    /* lws's own stage timeouts stay above ours: the connect deadline below decides */
    info.timeout_secs = (unsigned int)(o->connect_timeout_ms / 1000 + 10);
    info.connect_timeout_secs = info.timeout_secs;
    if (o->tls) {
        info.options = LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT;
        info.client_ssl_ca_filepath = o->ca_file;
    }

    pipe_guard guard;
    pipe_block(&guard);
    pthread_mutex_lock(&global_lock);
    struct lws_context *context = lws_create_context(&info);
    if (!o->tls) pthread_mutex_unlock(&global_lock);
    if (context == NULL) {
        if (o->tls) pthread_mutex_unlock(&global_lock);
        pipe_restore(&guard);
        report(err, DWS_ERR_CONNECT_FAILED, 0, "connecting to %s failed: %s", c->host_port,
               o->tls && o->ca_file ? "the TLS setup failed (is ca_file a readable PEM file?)" : "the lws context could not be created");
        free_connection(c);
        return DWS_ERR_CONNECT_FAILED;
    }
    pthread_mutex_lock(&c->state_lock);
    c->context = context;
    pthread_mutex_unlock(&c->state_lock);

    struct lws_client_connect_info ci;
    memset(&ci, 0, sizeof ci);
    ci.context = context;
    ci.address = o->host;
    ci.port = o->port;
    ci.path = o->path;
    char host_header[300];
    snprintf(host_header, sizeof host_header, strchr(o->host, ':') ? "[%s]:%d" : "%s:%d", o->host, o->port);
    ci.host = host_header;
    ci.origin = host_header;
    ci.protocol = o->subprotocol;
    ci.ietf_version_or_minus_one = -1;
    ci.ssl_connection = (o->tls ? LCCSCF_USE_SSL : 0) | LCCSCF_HTTP_NO_FOLLOW_REDIRECT;
    ci.pwsi = &c->wsi;
    ci.local_protocol_name = c->protocols[0].name;

    int64_t deadline = now_us() + (int64_t)o->connect_timeout_ms * 1000;
    struct lws *started = lws_client_connect_via_info(&ci);
    pipe_restore(&guard);
    if (started == NULL && !c->failed) {
        /* lws gives no reason when it fails before it has a connection; a name that does not
         * resolve is the usual one */
        struct addrinfo hints, *found = NULL;
        memset(&hints, 0, sizeof hints);
        hints.ai_socktype = SOCK_STREAM;
        int resolved = getaddrinfo(o->host, NULL, &hints, &found);
        if (found) freeaddrinfo(found);
        if (resolved != 0) {
            set_error(c, DWS_ERR_CONNECT_FAILED, 0, 0, "connecting to %s failed: the host name could not be resolved (%s)",
                      c->host_port, gai_strerror(resolved));
        } else {
            set_error(c, DWS_ERR_CONNECT_FAILED, 0, 0, "connecting to %s failed: the connection could not be started",
                      c->host_port);
        }
    }
    while (!c->established && !c->failed) {
        if (now_us() >= deadline) {
            set_error(c, DWS_ERR_TIMED_OUT, 0, 0, "connecting to %s took longer than %d ms", c->host_port,
                      o->connect_timeout_ms);
            break;
        }
        service_until(c, deadline);
    }
    if (o->tls) pthread_mutex_unlock(&global_lock);
    if (!c->established || c->failed) {
        dws_status status = c->error.status;
        if (err) *err = c->error;
        destroy_context(c);
        free_connection(c);
        return status;
    }
    *out = c;
    return DWS_OK;
}

static dws_status fail(dws_connection *c, dws_error *err) {
    if (err) *err = c->error;
    return c->error.status;
}

static dws_status closed_locally(dws_error *err) {
    report(err, DWS_ERR_CONNECTION_LOST, 0, "the connection was closed by this side");
    return DWS_ERR_CONNECTION_LOST;
}

dws_status dws_send_text(dws_connection *c, const uint8_t *data, size_t length, dws_error *err) {
    pthread_mutex_lock(&c->service_lock);
    dws_status status;
    if (c->context == NULL) {
        status = closed_locally(err);
    } else if (c->failed || c->wsi == NULL) {
        status = fail(c, err);
    } else if ((c->tx = malloc(LWS_PRE + length + 1)) == NULL) {
        report(err, DWS_ERR_CONNECTION_LOST, 0, "out of memory for a message of %zu bytes", length);
        status = DWS_ERR_CONNECTION_LOST;
    } else {
        if (length) memcpy(c->tx + LWS_PRE, data, length);
        c->tx_length = length;
        c->tx_pending = 1;
        lws_callback_on_writable(c->wsi);
        /* A peer that takes nothing for a ping interval and a pong timeout is gone. */
        int64_t deadline = now_us() + c->ping_interval_us + c->pong_timeout_us;
        for (;;) {
            if (c->failed || c->wsi == NULL) {
                status = fail(c, err);
                break;
            }
            if (!c->tx_pending && !lws_partial_buffered(c->wsi)) {
                status = DWS_OK;
                break;
            }
            int64_t now = now_us();
            if (now >= deadline) {
                set_error(c, DWS_ERR_CONNECTION_LOST, 0, 0, "%s took no data for %lld ms", c->host_port,
                          (long long)((c->ping_interval_us + c->pong_timeout_us) / 1000));
                continue;
            }
            int64_t next = keepalive(c, now);
            service_until(c, next < deadline ? next : deadline);
        }
        free(c->tx);
        c->tx = NULL;
        c->tx_pending = 0;
    }
    pthread_mutex_unlock(&c->service_lock);
    return status;
}

dws_status dws_receive(dws_connection *c, int timeout_ms, uint8_t **data, size_t *length, dws_error *err) {
    *data = NULL;
    *length = 0;
    pthread_mutex_lock(&c->service_lock);
    dws_status status;
    if (c->context == NULL) {
        status = closed_locally(err);
        pthread_mutex_unlock(&c->service_lock);
        return status;
    }
    int64_t deadline = now_us() + (int64_t)(timeout_ms < 0 ? 0 : timeout_ms) * 1000;
    for (;;) {
        if (c->head != NULL) {
            dws_message *m = c->head;
            c->head = m->next;
            if (c->head == NULL) c->tail = NULL;
            *data = m->data;
            *length = m->length;
            free(m);
            status = DWS_OK;
            break;
        }
        if (c->failed || c->wsi == NULL) {
            status = fail(c, err);
            break;
        }
        pthread_mutex_lock(&c->state_lock);
        int woken = c->wake_pending || c->close_requested;
        c->wake_pending = 0;
        pthread_mutex_unlock(&c->state_lock);
        int64_t now = now_us();
        if (woken || now >= deadline) {
            status = DWS_NOTHING;
            break;
        }
        int64_t next = keepalive(c, now);
        if (c->failed) continue;
        service_until(c, next < deadline ? next : deadline);
    }
    pthread_mutex_unlock(&c->service_lock);
    return status;
}

void dws_wake(dws_connection *c) {
    pthread_mutex_lock(&c->state_lock);
    c->wake_pending = 1;
    if (c->context) lws_cancel_service(c->context);
    pthread_mutex_unlock(&c->state_lock);
}

void dws_close(dws_connection *c, uint16_t code, const char *reason) {
    pthread_mutex_lock(&c->state_lock);
    c->close_requested = 1;
    if (c->context) lws_cancel_service(c->context);
    pthread_mutex_unlock(&c->state_lock);

    pthread_mutex_lock(&c->service_lock);
    if (c->context != NULL) {
        if (c->wsi != NULL && c->established && !c->failed) {
            c->close_wanted = 1;
            c->close_code = code;
            snprintf(c->close_reason, sizeof c->close_reason, "%s", reason ? reason : "");
            lws_callback_on_writable(c->wsi);
            /* the close frame goes out; the peer's answer is awaited briefly */
            int64_t deadline = now_us() + 1000000;
            while (c->wsi != NULL && now_us() < deadline) service_until(c, deadline);
        }
        destroy_context(c);
    }
    pthread_mutex_unlock(&c->service_lock);
}

void dws_free(dws_connection *c) {
    if (c == NULL) return;
    dws_close(c, LWS_CLOSE_STATUS_NORMAL, "");
    free_connection(c);
}
