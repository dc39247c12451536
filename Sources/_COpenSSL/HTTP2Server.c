// The TLS terminator's HTTP/2 side: nghttp2's server session (loaded at run time from libnghttp2.so.14, the
// library libcurl itself links for HTTP/2) on a connection whose ALPN chose "h2". Each request is answered by the
// upstream HTTP/1.1 server on an upstream connection of its own, in a thread of its own, so the streams of one
// connection are answered concurrently and a held upstream answer holds only its stream.
#include "COpenSSL.h"
#include "OpenSSLAPI.h"
#include "TLSServerParts.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <unistd.h>

// nghttp2.h's types, as far as this file uses them (stable ABI of libnghttp2.so.14).
typedef struct { uint8_t *name; uint8_t *value; size_t namelen; size_t valuelen; uint8_t flags; } h2_nv;
typedef union { int fd; void *ptr; } h2_data_source;
typedef ssize_t (*h2_read_callback)(void *session, int32_t stream_id, uint8_t *buffer, size_t length,
                                    uint32_t *data_flags, h2_data_source *source, void *user);
typedef struct { h2_data_source source; h2_read_callback read_callback; } h2_data_provider;
typedef struct { int32_t settings_id; uint32_t value; } h2_settings_entry;
// Every member of nghttp2_frame starts with this header.
typedef struct { size_t length; int32_t stream_id; uint8_t type; uint8_t flags; uint8_t reserved; } h2_frame_hd;

enum { FRAME_DATA = 0, FRAME_HEADERS = 1, FLAG_END_STREAM = 1, SETTINGS_MAX_CONCURRENT_STREAMS = 3, DATA_FLAG_EOF = 1,
       MAX_ANSWER = 16 << 20 };

typedef int (*on_header_fn)(void *, const h2_frame_hd *, const uint8_t *, size_t, const uint8_t *, size_t, uint8_t, void *);
typedef int (*on_frame_fn)(void *, const h2_frame_hd *, void *);
typedef int (*on_close_fn)(void *, int32_t, uint32_t, void *);

static struct {
    int (*callbacks_new)(void **);
    void (*callbacks_del)(void *);
    void (*set_on_header)(void *, on_header_fn);
    void (*set_on_frame_recv)(void *, on_frame_fn);
    void (*set_on_stream_close)(void *, on_close_fn);
    int (*server_new)(void **, const void *, void *);
    void (*session_del)(void *);
    int (*submit_settings)(void *, uint8_t, const h2_settings_entry *, size_t);
    ssize_t (*mem_recv)(void *, const uint8_t *, size_t);
    ssize_t (*mem_send)(void *, const uint8_t **);
    int (*submit_response)(void *, int32_t, const h2_nv *, size_t, const h2_data_provider *);
    int (*want_read)(void *);
    int (*want_write)(void *);
} h2;

static pthread_once_t h2_once = PTHREAD_ONCE_INIT;
static char h2_error[200] = "nghttp2 was not loaded";
static int h2_loaded = -1;

#define H2_LOAD(field, name) \
    if (!(*(void **)(&h2.field) = dlsym(lib, name))) { snprintf(h2_error, sizeof h2_error, "nghttp2 has no %s", name); return; }

static void load_nghttp2(void) {
    void *lib = dlopen("libnghttp2.so.14", RTLD_NOW | RTLD_LOCAL);
    if (!lib) { snprintf(h2_error, sizeof h2_error, "cannot load libnghttp2.so.14: %s", dlerror()); return; }
    H2_LOAD(callbacks_new, "nghttp2_session_callbacks_new")
    H2_LOAD(callbacks_del, "nghttp2_session_callbacks_del")
    H2_LOAD(set_on_header, "nghttp2_session_callbacks_set_on_header_callback")
    H2_LOAD(set_on_frame_recv, "nghttp2_session_callbacks_set_on_frame_recv_callback")
    H2_LOAD(set_on_stream_close, "nghttp2_session_callbacks_set_on_stream_close_callback")
    H2_LOAD(server_new, "nghttp2_session_server_new")
    H2_LOAD(session_del, "nghttp2_session_del")
    H2_LOAD(submit_settings, "nghttp2_submit_settings")
    H2_LOAD(mem_recv, "nghttp2_session_mem_recv")
    H2_LOAD(mem_send, "nghttp2_session_mem_send")
    H2_LOAD(submit_response, "nghttp2_submit_response")
    H2_LOAD(want_read, "nghttp2_session_want_read")
    H2_LOAD(want_write, "nghttp2_session_want_write")
    h2_loaded = 0;
}

int ulk_nghttp2_load(char *error, size_t error_length) {
    pthread_once(&h2_once, load_nghttp2);
    if (h2_loaded != 0 && error && error_length) snprintf(error, error_length, "%s", h2_error);
    return h2_loaded;
}

/// One request and, once the upstream answered, its answer.
typedef struct stream {
    int32_t id;
    char path[8192];
    char authority[256];
    char *headers;          // the request's other fields, "name: value\r\n" each
    size_t headers_length;
    int status;
    char *head;             // the answer's fields, "name\0value\0" pairs, lower-case names
    size_t head_length;
    int fields;
    unsigned char *body;
    size_t body_length;
    size_t body_sent;
    struct stream *next;
} stream;

/// What a connection and its streams' workers share.
typedef struct {
    ulk_tls_server *server;
    pthread_mutex_t lock;
    int references;
    int wake[2];            // a worker writes a byte when it put an answer on `answered`
    stream *answered;
} shared_connection;

/// The connection thread's own state, the session's user data.
typedef struct {
    shared_connection *shared;
    stream *receiving;      // requests whose END_STREAM has not arrived
    stream *sending;        // answers submitted, until their stream closes
} connection;

static void free_stream(stream *s) {
    if (!s) return;
    free(s->headers);
    free(s->head);
    free(s->body);
    free(s);
}

static void free_list(stream *s) {
    while (s) { stream *next = s->next; free_stream(s); s = next; }
}

static void unreference(shared_connection *shared) {
    pthread_mutex_lock(&shared->lock);
    int left = --shared->references;
    pthread_mutex_unlock(&shared->lock);
    if (left > 0) return;
    free_list(shared->answered);
    close(shared->wake[0]);
    close(shared->wake[1]);
    pthread_mutex_destroy(&shared->lock);
    free(shared);
}

static stream *take(stream **list, int32_t id) {
    for (stream **at = list; *at; at = &(*at)->next) {
        if ((*at)->id == id) { stream *found = *at; *at = found->next; found->next = NULL; return found; }
    }
    return NULL;
}

static int append(char **text, size_t *length, const char *bytes, size_t count) {
    char *grown = realloc(*text, *length + count + 1);
    if (!grown) return -1;
    memcpy(grown + *length, bytes, count);
    *length += count;
    grown[*length] = 0;
    *text = grown;
    return 0;
}

/// Decodes a chunked body in place; returns its length.
static size_t unchunk(unsigned char *body, size_t length) {
    size_t in = 0, out = 0;
    while (in < length) {
        char *end = NULL;
        unsigned long size = strtoul((const char *)body + in, &end, 16);
        const unsigned char *line = memchr(body + in, '\n', length - in);
        if (!line || size == 0) break;
        in = (size_t)(line - body) + 1;
        if (size > length - in) size = length - in;
        memmove(body + out, body + in, size);
        out += size;
        in += size + 2;
    }
    return out;
}

/// Asks the upstream, fills the stream's answer (a 502 when the upstream cannot be reached).
static void ask_upstream(ulk_tls_server *server, stream *s) {
    s->status = 502;
    int upstream = ulk_tls_connect_upstream(server->config.upstream_port);
    if (upstream < 0) return;
    if (!ulk_tls_track(server, upstream)) { close(upstream); return; }
    char *request = NULL;
    size_t request_length = 0;
    char line[8800];
    int n = snprintf(line, sizeof line, "GET %s HTTP/1.1\r\nHost: %s\r\n", s->path, s->authority);
    append(&request, &request_length, line, (size_t)n);
    if (s->headers) append(&request, &request_length, s->headers, s->headers_length);
    append(&request, &request_length, "Connection: close\r\n\r\n", 21);
    unsigned char *answer = NULL;
    size_t answer_length = 0;
    if (request && ulk_tls_send_all(upstream, (const unsigned char *)request, request_length) == 0) {
        unsigned char buffer[16384];
        for (;;) {
            ssize_t got = recv(upstream, buffer, sizeof buffer, 0);
            if (got < 0 && errno == EINTR) continue;
            if (got <= 0 || answer_length + (size_t)got > MAX_ANSWER) break;
            if (append((char **)&answer, &answer_length, (const char *)buffer, (size_t)got) != 0) break;
        }
    }
    free(request);
    ulk_tls_release(server, upstream);
    if (!answer) return;
    unsigned char *end = (unsigned char *)strstr((char *)answer, "\r\n\r\n");
    const char *space = strchr((char *)answer, ' ');
    if (!end || !space) { free(answer); return; }
    s->status = atoi(space + 1);
    int chunked = 0;
    // Header lines after the status line, as lower-case name and trimmed value; hop-by-hop fields dropped.
    for (char *field = strstr((char *)answer, "\r\n") + 2; field < (char *)end;) {
        char *next = strstr(field, "\r\n");
        char *colon = memchr(field, ':', (size_t)(next - field));
        if (colon) {
            for (char *c = field; c < colon; c++) if (*c >= 'A' && *c <= 'Z') *c += 32;
            size_t name_length = (size_t)(colon - field);
            char *value = colon + 1;
            while (value < next && (*value == ' ' || *value == '\t')) value++;
            if (name_length == 17 && strncmp(field, "transfer-encoding", 17) == 0) chunked = 1;
            int hop = (name_length == 10 && strncmp(field, "connection", 10) == 0)
                || (name_length == 10 && strncmp(field, "keep-alive", 10) == 0)
                || (name_length == 17 && strncmp(field, "transfer-encoding", 17) == 0)
                || (name_length == 7 && strncmp(field, "upgrade", 7) == 0);
            if (!hop) {
                append(&s->head, &s->head_length, field, name_length);
                append(&s->head, &s->head_length, "", 1);
                append(&s->head, &s->head_length, value, (size_t)(next - value));
                append(&s->head, &s->head_length, "", 1);
                s->fields += 1;
            }
        }
        field = next + 2;
    }
    size_t offset = (size_t)(end + 4 - answer);
    s->body_length = answer_length - offset;
    memmove(answer, answer + offset, s->body_length);
    if (chunked) s->body_length = unchunk(answer, s->body_length);
    s->body = answer;
}

typedef struct { shared_connection *shared; stream *s; } work;

static void *answer_stream(void *argument) {
    work job = *(work *)argument;
    free(argument);
    ask_upstream(job.shared->server, job.s);
    pthread_mutex_lock(&job.shared->lock);
    job.s->next = job.shared->answered;
    job.shared->answered = job.s;
    pthread_mutex_unlock(&job.shared->lock);
    char byte = 1;
    while (write(job.shared->wake[1], &byte, 1) < 0 && errno == EINTR) {}
    unreference(job.shared);
    return NULL;
}

static int on_header(void *session, const h2_frame_hd *frame, const uint8_t *name, size_t name_length,
                     const uint8_t *value, size_t value_length, uint8_t flags, void *user) {
    (void)session; (void)flags;
    connection *c = user;
    if (frame->type != FRAME_HEADERS) return 0;
    stream *s = take(&c->receiving, frame->stream_id);
    if (!s) {
        s = calloc(1, sizeof *s);
        if (!s) return 0;
        s->id = frame->stream_id;
        strcpy(s->path, "/");
    }
    if (name_length == 5 && memcmp(name, ":path", 5) == 0) {
        snprintf(s->path, sizeof s->path, "%.*s", (int)value_length, (const char *)value);
    } else if (name_length == 10 && memcmp(name, ":authority", 10) == 0) {
        snprintf(s->authority, sizeof s->authority, "%.*s", (int)value_length, (const char *)value);
    } else if (name_length > 0 && name[0] != ':') {
        append(&s->headers, &s->headers_length, (const char *)name, name_length);
        append(&s->headers, &s->headers_length, ": ", 2);
        append(&s->headers, &s->headers_length, (const char *)value, value_length);
        append(&s->headers, &s->headers_length, "\r\n", 2);
    }
    s->next = c->receiving;
    c->receiving = s;
    return 0;
}

static int on_frame(void *session, const h2_frame_hd *frame, void *user) {
    (void)session;
    connection *c = user;
    if ((frame->type != FRAME_HEADERS && frame->type != FRAME_DATA) || !(frame->flags & FLAG_END_STREAM)) return 0;
    stream *s = take(&c->receiving, frame->stream_id);
    if (!s) return 0;
    ulk_tls_count(c->shared->server, ULK_TLS_HTTP2_STREAMS);
    work *job = malloc(sizeof *job);
    if (!job) { free_stream(s); return 0; }
    *job = (work){ c->shared, s };
    pthread_mutex_lock(&c->shared->lock);
    c->shared->references += 1;
    pthread_mutex_unlock(&c->shared->lock);
    if (ulk_tls_spawn(c->shared->server, answer_stream, job) != 0) {
        free(job);
        free_stream(s);
        unreference(c->shared);
    }
    return 0;
}

static int on_close(void *session, int32_t id, uint32_t error, void *user) {
    (void)session; (void)error;
    connection *c = user;
    free_stream(take(&c->sending, id));
    free_stream(take(&c->receiving, id));
    return 0;
}

static ssize_t read_body(void *session, int32_t id, uint8_t *buffer, size_t length, uint32_t *flags,
                         h2_data_source *source, void *user) {
    (void)session; (void)id; (void)user;
    stream *s = source->ptr;
    size_t left = s->body_length - s->body_sent;
    size_t count = left < length ? left : length;
    if (count) memcpy(buffer, s->body + s->body_sent, count);
    s->body_sent += count;
    if (s->body_sent == s->body_length) *flags |= DATA_FLAG_EOF;
    return (ssize_t)count;
}

/// Submits the answers the workers finished.
static void submit_answers(void *session, connection *c) {
    pthread_mutex_lock(&c->shared->lock);
    stream *answered = c->shared->answered;
    c->shared->answered = NULL;
    pthread_mutex_unlock(&c->shared->lock);
    while (answered) {
        stream *s = answered;
        answered = s->next;
        s->next = NULL;
        h2_nv *fields = calloc((size_t)s->fields + 1, sizeof *fields);
        char status[8];
        snprintf(status, sizeof status, "%d", s->status);
        if (!fields) { free_stream(s); continue; }
        fields[0] = (h2_nv){ (uint8_t *)":status", (uint8_t *)status, 7, strlen(status), 0 };
        char *at = s->head;
        for (int i = 0; i < s->fields; i++) {
            size_t name_length = strlen(at);
            char *value = at + name_length + 1;
            size_t value_length = strlen(value);
            fields[i + 1] = (h2_nv){ (uint8_t *)at, (uint8_t *)value, name_length, value_length, 0 };
            at = value + value_length + 1;
        }
        h2_data_provider body = { { .ptr = s }, read_body };
        int submitted = h2.submit_response(session, s->id, fields, (size_t)s->fields + 1, &body);
        free(fields);
        if (submitted != 0) { free_stream(s); continue; }
        s->next = c->sending;
        c->sending = s;
    }
}

void ulk_h2_serve(ulk_tls_server *server, void *ssl, int fd) {
    shared_connection *shared = calloc(1, sizeof *shared);
    if (!shared) return;
    if (pipe(shared->wake) != 0) { free(shared); return; }
    fcntl(shared->wake[0], F_SETFD, FD_CLOEXEC);
    fcntl(shared->wake[1], F_SETFD, FD_CLOEXEC);
    shared->server = server;
    shared->references = 1;
    pthread_mutex_init(&shared->lock, NULL);
    connection c = { shared, NULL, NULL };
    void *callbacks = NULL;
    void *session = NULL;
    if (h2.callbacks_new(&callbacks) != 0) { unreference(shared); return; }
    h2.set_on_header(callbacks, on_header);
    h2.set_on_frame_recv(callbacks, on_frame);
    h2.set_on_stream_close(callbacks, on_close);
    int made = h2.server_new(&session, callbacks, &c);
    h2.callbacks_del(callbacks);
    if (made != 0) { unreference(shared); return; }
    int max_streams = server->config.max_streams > 0 ? server->config.max_streams : 100;
    h2_settings_entry settings = { SETTINGS_MAX_CONCURRENT_STREAMS, (uint32_t)max_streams };
    h2.submit_settings(session, 0, &settings, 1);
    unsigned char buffer[16384];
    for (;;) {
        const uint8_t *out = NULL;
        ssize_t produced;
        int failed = 0;
        while ((produced = h2.mem_send(session, &out)) > 0) {
            if (ulk_tls_ssl_write_all(ssl, out, (size_t)produced) != 0) { failed = 1; break; }
        }
        if (failed || produced < 0) break;
        if (!h2.want_read(session) && !h2.want_write(session)) break;
        int from_client = ulk_ssl.SSL_pending(ssl) > 0;
        if (!from_client) {
            struct pollfd fds[3] = { { server->wake[0], POLLIN, 0 }, { fd, POLLIN, 0 }, { shared->wake[0], POLLIN, 0 } };
            int ready = poll(fds, 3, -1);
            if (ready < 0 && errno == EINTR) continue;
            if (ready < 0 || fds[0].revents) break;
            from_client = fds[1].revents != 0;
            if (fds[2].revents) {
                char drained[64];
                while (read(shared->wake[0], drained, sizeof drained) < 0 && errno == EINTR) {}
                submit_answers(session, &c);
            }
        }
        if (from_client) {
            int n = ulk_ssl.SSL_read(ssl, buffer, sizeof buffer);
            if (n <= 0) break;
            if (h2.mem_recv(session, buffer, (size_t)n) < 0) break;
        }
    }
    h2.session_del(session);
    free_list(c.receiving);
    free_list(c.sending);
    ulk_ssl.SSL_shutdown(ssl);
    unreference(shared);
}
