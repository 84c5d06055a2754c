/* Encryption at rest (docs/encryption.md): an SQLite VFS of the engine's own that encrypts and
 * authenticates every page of a database file, its write-ahead log and its rollback journal with
 * a 64-byte key (Realm's encryptionKey: the first 32 bytes are the AES-256 key, the last 32 the
 * HMAC-SHA-224 key), over OpenSSL's libcrypto. Engine code: only DrumlinStorage calls it. */
#ifndef DRUMLIN_CRYPT_H
#define DRUMLIN_CRYPT_H
#include <stddef.h>
#include <stdint.h>

/* The page size of every encrypted file, and the bytes SQLite reserves at the end of each page
 * for its IV (16) and tag (28). */
#define DRUMLIN_CRYPT_PAGE_SIZE 4096
#define DRUMLIN_CRYPT_RESERVE 44
#define DRUMLIN_CRYPT_KEY_SIZE 64

/* A VFS holding one key, registered under a unique name (written to `name`, 32 bytes). NULL when
 * OpenSSL or memory fails. Release it once with dlcrypt_vfs_release after closing the
 * connection that used it; the key is wiped when the last file it opened is closed. */
void *dlcrypt_vfs_create(const uint8_t key[DRUMLIN_CRYPT_KEY_SIZE], char name[32]);
void dlcrypt_vfs_release(void *vfs);

/* What the first bytes of a database file (n of them, at least 100 for a verdict) say:
 * 0 not encrypted (or empty), 1 encrypted and `key` is its key, 2 encrypted and `key` is not its
 * key, 3 encrypted and `key` is NULL, 4 encrypted with `key` but its key check value was changed
 * (page 1 authenticates: damage, not a wrong key; needs the whole first page). */
int dlcrypt_probe(const uint8_t *head, size_t n, const uint8_t *key);

/* The last authentication failure the VFS reported on this thread (SQLITE_IOERR_DATA): which
 * page of which file. Empty when there was none. */
const char *dlcrypt_last_failure(void);
void dlcrypt_clear_failure(void);

/* The cipher layer's primitives, as the VFS uses them (for the known-answer tests).
 * AES-256-CTR of n bytes with a 16-byte initial counter block; HMAC-SHA-224. 0 on success. */
int dlcrypt_aes256_ctr(const uint8_t key[32], const uint8_t iv[16], const uint8_t *in, size_t n, uint8_t *out);
int dlcrypt_hmac_sha224(const uint8_t *key, size_t key_length, const uint8_t *message, size_t n, uint8_t out[28]);

/* sqlite3_file_control(SQLITE_FCNTL_RESERVE_BYTES) with the reserve above; SQLite's result. */
struct sqlite3;
int dlcrypt_reserve_bytes(struct sqlite3 *db);
#endif
