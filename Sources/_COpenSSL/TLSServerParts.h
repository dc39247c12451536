// Internal to the TLS terminator: its state and the helpers its HTTP/1.1 pump and its HTTP/2 server share.
#ifndef ULK_TLS_SERVER_PARTS_H
#define ULK_TLS_SERVER_PARTS_H

#include "COpenSSL.h"
#include <pthread.h>
#include <stddef.h>

enum { MAX_OPEN = 1024 };

struct ulk_tls_server {
    ulk_tls_server_config config;  // its strings are copies the server owns
    void *ctx;
    int listener;
    int port;
    int wake[2];                   // readable for good once the server stops
    pthread_t accept_thread;
    pthread_mutex_t lock;
    pthread_cond_t changed;        // a counter moved or a connection thread ended
    long counts[ULK_TLS_COUNTERS];
    int live_threads;
    int stopping;
    int open[MAX_OPEN];            // descriptors of live connections (client and upstream), -1 when free
};

/// Adds one to a counter and wakes its waiters.
void ulk_tls_count(ulk_tls_server *server, int counter);
/// Registers a descriptor, so that stopping can wake a thread blocked on it; 0 when the server is stopping.
int ulk_tls_track(ulk_tls_server *server, int fd);
/// Unregisters and closes a descriptor.
void ulk_tls_release(ulk_tls_server *server, int fd);
int ulk_tls_send_all(int fd, const unsigned char *bytes, size_t length);
int ulk_tls_connect_upstream(int port);
int ulk_tls_ssl_write_all(void *ssl, const unsigned char *bytes, size_t length);
/// Starts a detached thread counted among the server's live threads (stopping waits for it); 0 on success.
int ulk_tls_spawn(ulk_tls_server *server, void *(*body)(void *), void *argument);

/// Speaks HTTP/2 on an established TLS connection until either side ends it: each request is answered by the
/// upstream HTTP/1.1 server, on an upstream connection of its own, so streams are answered concurrently.
void ulk_h2_serve(ulk_tls_server *server, void *ssl, int fd);

#endif
