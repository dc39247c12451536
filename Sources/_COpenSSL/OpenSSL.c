// Loads OpenSSL 3 at run time and makes the test PKI: keys, certificates and their PEM files.
#include "COpenSSL.h"
#include "OpenSSLAPI.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

ulk_openssl_api ulk_ssl;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char load_error[256] = "OpenSSL was not loaded";
static int load_result = -1;

#define LOAD(lib, field, name) \
    if (!(*(void **)(&ulk_ssl.field) = dlsym(lib, name))) { \
        snprintf(load_error, sizeof load_error, "OpenSSL 3 has no %s", name); \
        return; \
    }

static void load(void) {
    void *crypto = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
    void *ssl = dlopen("libssl.so.3", RTLD_NOW | RTLD_LOCAL);
    if (!crypto || !ssl) {
        snprintf(load_error, sizeof load_error, "cannot load OpenSSL 3 (libssl.so.3, libcrypto.so.3): %s", dlerror());
        return;
    }
    LOAD(crypto, EVP_PKEY_Q_keygen, "EVP_PKEY_Q_keygen")
    LOAD(crypto, EVP_PKEY_free, "EVP_PKEY_free")
    LOAD(crypto, EVP_sha256, "EVP_sha256")
    LOAD(crypto, EVP_sha1, "EVP_sha1")
    LOAD(crypto, X509_new, "X509_new")
    LOAD(crypto, X509_free, "X509_free")
    LOAD(crypto, X509_set_version, "X509_set_version")
    LOAD(crypto, X509_get_serialNumber, "X509_get_serialNumber")
    LOAD(crypto, ASN1_INTEGER_set, "ASN1_INTEGER_set")
    LOAD(crypto, X509_getm_notBefore, "X509_getm_notBefore")
    LOAD(crypto, X509_getm_notAfter, "X509_getm_notAfter")
    LOAD(crypto, X509_gmtime_adj, "X509_gmtime_adj")
    LOAD(crypto, X509_get_subject_name, "X509_get_subject_name")
    LOAD(crypto, X509_set_issuer_name, "X509_set_issuer_name")
    LOAD(crypto, X509_NAME_add_entry_by_txt, "X509_NAME_add_entry_by_txt")
    LOAD(crypto, X509_set_pubkey, "X509_set_pubkey")
    LOAD(crypto, X509_sign, "X509_sign")
    LOAD(crypto, X509V3_set_ctx, "X509V3_set_ctx")
    LOAD(crypto, X509V3_EXT_conf_nid, "X509V3_EXT_conf_nid")
    LOAD(crypto, X509_add_ext, "X509_add_ext")
    LOAD(crypto, X509_EXTENSION_free, "X509_EXTENSION_free")
    LOAD(crypto, BIO_new_file, "BIO_new_file")
    LOAD(crypto, BIO_new, "BIO_new")
    LOAD(crypto, BIO_s_mem, "BIO_s_mem")
    LOAD(crypto, BIO_read, "BIO_read")
    LOAD(crypto, BIO_write, "BIO_write")
    LOAD(crypto, BIO_free, "BIO_free")
    LOAD(crypto, PEM_write_bio_X509, "PEM_write_bio_X509")
    LOAD(crypto, PEM_write_bio_PrivateKey, "PEM_write_bio_PrivateKey")
    LOAD(crypto, ERR_get_error, "ERR_get_error")
    LOAD(crypto, ERR_error_string_n, "ERR_error_string_n")
    LOAD(crypto, ERR_clear_error, "ERR_clear_error")
    LOAD(ssl, TLS_server_method, "TLS_server_method")
    LOAD(ssl, SSL_CTX_new, "SSL_CTX_new")
    LOAD(ssl, SSL_CTX_free, "SSL_CTX_free")
    LOAD(ssl, SSL_CTX_ctrl, "SSL_CTX_ctrl")
    LOAD(ssl, SSL_CTX_set_security_level, "SSL_CTX_set_security_level")
    LOAD(ssl, SSL_CTX_set_cipher_list, "SSL_CTX_set_cipher_list")
    LOAD(ssl, SSL_CTX_set_ciphersuites, "SSL_CTX_set_ciphersuites")
    LOAD(ssl, SSL_CTX_use_certificate_chain_file, "SSL_CTX_use_certificate_chain_file")
    LOAD(ssl, SSL_CTX_use_PrivateKey_file, "SSL_CTX_use_PrivateKey_file")
    LOAD(ssl, SSL_CTX_check_private_key, "SSL_CTX_check_private_key")
    LOAD(ssl, SSL_new, "SSL_new")
    LOAD(ssl, SSL_free, "SSL_free")
    LOAD(ssl, SSL_set_fd, "SSL_set_fd")
    LOAD(ssl, SSL_set_bio, "SSL_set_bio")
    LOAD(ssl, SSL_accept, "SSL_accept")
    LOAD(ssl, SSL_read, "SSL_read")
    LOAD(ssl, SSL_write, "SSL_write")
    LOAD(ssl, SSL_pending, "SSL_pending")
    LOAD(ssl, SSL_get_error, "SSL_get_error")
    LOAD(ssl, SSL_shutdown, "SSL_shutdown")
    LOAD(ssl, SSL_session_reused, "SSL_session_reused")
    LOAD(ssl, SSL_CTX_set_alpn_select_cb, "SSL_CTX_set_alpn_select_cb")
    LOAD(ssl, SSL_select_next_proto, "SSL_select_next_proto")
    LOAD(ssl, SSL_get0_alpn_selected, "SSL_get0_alpn_selected")
    load_result = 0;
}

int ulk_ssl_load(char *error, size_t error_length) {
    pthread_once(&load_once, load);
    if (load_result != 0 && error && error_length) snprintf(error, error_length, "%s", load_error);
    return load_result;
}

void ulk_ssl_error(char *buffer, size_t length) {
    if (!length) return;
    buffer[0] = 0;
    if (load_result != 0) return;
    unsigned long code = ulk_ssl.ERR_get_error();
    if (code) ulk_ssl.ERR_error_string_n(code, buffer, length);
    ulk_ssl.ERR_clear_error();
}

void *ulk_pki_key(const char *curve, int rsa_bits) {
    if (ulk_ssl_load(NULL, 0) != 0) return NULL;
    if (curve) return ulk_ssl.EVP_PKEY_Q_keygen(NULL, NULL, "EC", curve);
    return ulk_ssl.EVP_PKEY_Q_keygen(NULL, NULL, "RSA", (size_t)rsa_bits);
}

void ulk_pki_key_free(void *key) {
    if (key) ulk_ssl.EVP_PKEY_free(key);
}

/// Adds one extension written in OpenSSL's configuration syntax; 0 on success.
static int add_extension(void *cert, void *issuer, int nid, const char *value) {
    // X509V3_CTX is a public struct whose size differs between versions: a zeroed buffer larger than any of them.
    _Alignas(16) unsigned char context[512];
    memset(context, 0, sizeof context);
    ulk_ssl.X509V3_set_ctx(context, issuer, cert, NULL, NULL, 0);
    void *extension = ulk_ssl.X509V3_EXT_conf_nid(NULL, context, nid, value);
    if (!extension) return -1;
    int added = ulk_ssl.X509_add_ext(cert, extension, -1);
    ulk_ssl.X509_EXTENSION_free(extension);
    return added == 1 ? 0 : -1;
}

enum {
    MBSTRING_ASC = 0x1001, NID_subject_key_identifier = 82, NID_key_usage = 83, NID_subject_alt_name = 85,
    NID_basic_constraints = 87, NID_authority_key_identifier = 90, NID_ext_key_usage = 126,
};

void *ulk_pki_cert(void *key, const char *common_name, const char *san, int is_ca, long long not_before_s,
                   long long not_after_s, int sha1, void *issuer_cert, void *issuer_key, long serial) {
    if (ulk_ssl_load(NULL, 0) != 0 || !key) return NULL;
    void *cert = ulk_ssl.X509_new();
    if (!cert) return NULL;
    int self_signed = !issuer_cert || !issuer_key;
    void *issuer = self_signed ? cert : issuer_cert;
    int failed = ulk_ssl.X509_set_version(cert, 2) != 1;  // X.509 v3
    failed |= ulk_ssl.ASN1_INTEGER_set(ulk_ssl.X509_get_serialNumber(cert), serial) != 1;
    failed |= !ulk_ssl.X509_gmtime_adj(ulk_ssl.X509_getm_notBefore(cert), (long)not_before_s);
    failed |= !ulk_ssl.X509_gmtime_adj(ulk_ssl.X509_getm_notAfter(cert), (long)not_after_s);
    failed |= ulk_ssl.X509_NAME_add_entry_by_txt(
        ulk_ssl.X509_get_subject_name(cert), "CN", MBSTRING_ASC, (const unsigned char *)common_name, -1, -1, 0) != 1;
    failed |= ulk_ssl.X509_set_issuer_name(cert, ulk_ssl.X509_get_subject_name(issuer)) != 1;
    failed |= ulk_ssl.X509_set_pubkey(cert, key) != 1;
    if (is_ca) {
        failed |= add_extension(cert, issuer, NID_basic_constraints, "critical,CA:TRUE");
        failed |= add_extension(cert, issuer, NID_key_usage, "critical,keyCertSign,cRLSign");
    } else {
        failed |= add_extension(cert, issuer, NID_basic_constraints, "critical,CA:FALSE");
        failed |= add_extension(cert, issuer, NID_key_usage, "critical,digitalSignature,keyEncipherment");
        failed |= add_extension(cert, issuer, NID_ext_key_usage, "serverAuth");
    }
    failed |= add_extension(cert, issuer, NID_subject_key_identifier, "hash");
    if (!self_signed) failed |= add_extension(cert, issuer, NID_authority_key_identifier, "keyid");
    if (san && *san) failed |= add_extension(cert, issuer, NID_subject_alt_name, san);
    if (!failed) {
        const void *digest = sha1 ? ulk_ssl.EVP_sha1() : ulk_ssl.EVP_sha256();
        failed |= ulk_ssl.X509_sign(cert, self_signed ? key : issuer_key, digest) <= 0;
    }
    if (failed) {
        ulk_ssl.X509_free(cert);
        return NULL;
    }
    return cert;
}

void ulk_pki_cert_free(void *cert) {
    if (cert) ulk_ssl.X509_free(cert);
}

int ulk_pki_write_cert(void *cert, const char *path, int append) {
    if (ulk_ssl_load(NULL, 0) != 0) return -1;
    void *bio = ulk_ssl.BIO_new_file(path, append ? "a" : "w");
    if (!bio) return -1;
    int written = ulk_ssl.PEM_write_bio_X509(bio, cert);
    ulk_ssl.BIO_free(bio);
    return written == 1 ? 0 : -1;
}

int ulk_pki_write_key(void *key, const char *path) {
    if (ulk_ssl_load(NULL, 0) != 0) return -1;
    void *bio = ulk_ssl.BIO_new_file(path, "w");
    if (!bio) return -1;
    int written = ulk_ssl.PEM_write_bio_PrivateKey(bio, key, NULL, NULL, 0, NULL, NULL);
    ulk_ssl.BIO_free(bio);
    return written == 1 ? 0 : -1;
}
