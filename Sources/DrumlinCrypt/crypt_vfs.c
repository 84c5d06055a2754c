/* The encrypting VFS (see DrumlinCrypt.h and docs/encryption.md for the scheme and its reasons).
 *
 * On disk, every page of DRUMLIN_CRYPT_PAGE_SIZE bytes is
 *     ciphertext (4052 bytes) | IV (16) | tag (28)
 * where the ciphertext is AES-256-CTR of the page's first 4052 bytes under a fresh random IV, and
 * the tag is HMAC-SHA-224 over a context (what file, where in it), the IV and the ciphertext
 * (encrypt-then-MAC). SQLite keeps the last 44 bytes of each page free for this
 * (SQLITE_FCNTL_RESERVE_BYTES) and reads them back as zeros.
 *
 * Page 1 of the database file starts with the clear magic "DrumlinEncrypted" (in place of SQLite's
 * "SQLite format 3", which it always holds) and carries at bytes 72-91 (SQLite's "reserved for
 * expansion, must be zero") a key check value, the first 20 bytes of HMAC(mac key, "Drumlin key
 * check 1"): a file is recognized as encrypted, and a wrong key as wrong, without decrypting.
 *
 * Where pages are: the database file at page-aligned offsets (context: page number); the
 * write-ahead log after each 24-byte frame header (context: the frame's offset, its page number
 * and salts, so a page image cannot be moved to another frame, page or log generation; zero salts,
 * which SQLite writes until a large transaction's commit, stand for the log's: frame_header); the
 * rollback journal wherever SQLite writes a whole page (context: the offset). The log's and the
 * journal's headers, page numbers and checksums stay as SQLite writes them. Temporary files
 * (sorter spills, temp databases) are encrypted with AES-256-CTR under a key made for the file
 * when it is opened, by byte offset, and not authenticated: they live only while a statement runs.
 * The -shm file is SQLite's shared-memory index and is not encrypted. */
#include "DrumlinCrypt.h"

#include <sqlite3.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/rand.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PAGE DRUMLIN_CRYPT_PAGE_SIZE
#define DATA (PAGE - DRUMLIN_CRYPT_RESERVE)
#define IV_SIZE 16
#define TAG_SIZE 28
#define WAL_HEADER 32
#define FRAME_HEADER 24
#define FRAME (FRAME_HEADER + PAGE)

static const char encrypted_magic[16] = {'D','r','u','m','l','i','n','E','n','c','r','y','p','t','e','d'};
static const char sqlite_magic[16] = "SQLite format 3";  /* with its NUL: 16 bytes */
#define CHECK_AT 72
#define CHECK_SIZE 20

static _Thread_local char last_failure[512];

const char *dlcrypt_last_failure(void) { return last_failure; }
void dlcrypt_clear_failure(void) { last_failure[0] = 0; }

/* ---- The cipher layer ---------------------------------------------------------------------- */

typedef struct Cipher {
    EVP_CIPHER_CTX *aes;  /* AES-256-CTR with the key set; each use sets its IV */
    EVP_MAC_CTX *mac;     /* HMAC-SHA-224 with the key set */
} Cipher;

static void cipher_free(Cipher *c) {
    EVP_CIPHER_CTX_free(c->aes);
    EVP_MAC_CTX_free(c->mac);
    c->aes = NULL;
    c->mac = NULL;
}

static int cipher_init(Cipher *c, const uint8_t aes_key[32], const uint8_t *mac_key, size_t mac_key_length) {
    c->aes = EVP_CIPHER_CTX_new();
    EVP_MAC *hmac = EVP_MAC_fetch(NULL, "HMAC", NULL);
    c->mac = hmac ? EVP_MAC_CTX_new(hmac) : NULL;
    EVP_MAC_free(hmac);
    OSSL_PARAM params[] = {
        OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, (char *)"SHA224", 0),
        OSSL_PARAM_construct_end(),
    };
    if (!c->aes || !c->mac || EVP_EncryptInit_ex(c->aes, EVP_aes_256_ctr(), NULL, aes_key, NULL) != 1
        || (mac_key && EVP_MAC_init(c->mac, mac_key, mac_key_length, params) != 1)) {
        cipher_free(c);
        return -1;
    }
    return 0;
}

/* CTR: encryption and decryption are the same operation. In place is allowed. */
static int cipher_ctr(Cipher *c, const uint8_t iv[IV_SIZE], const uint8_t *in, size_t n, uint8_t *out) {
    int length = 0;
    if (EVP_EncryptInit_ex(c->aes, NULL, NULL, NULL, iv) != 1) return -1;
    while (n > 0) {
        int chunk = n > (1u << 30) ? (1 << 30) : (int)n;
        if (EVP_EncryptUpdate(c->aes, out, &length, in, chunk) != 1 || length != chunk) return -1;
        in += chunk; out += chunk; n -= (size_t)chunk;
    }
    return 0;
}

/* HMAC over up to three parts. */
static int cipher_mac(Cipher *c, const uint8_t *a, size_t an, const uint8_t *b, size_t bn,
                      const uint8_t *d, size_t dn, uint8_t out[TAG_SIZE]) {
    size_t length = 0;
    if (EVP_MAC_init(c->mac, NULL, 0, NULL) != 1) return -1;
    if (an && EVP_MAC_update(c->mac, a, an) != 1) return -1;
    if (bn && EVP_MAC_update(c->mac, b, bn) != 1) return -1;
    if (dn && EVP_MAC_update(c->mac, d, dn) != 1) return -1;
    if (EVP_MAC_final(c->mac, out, &length, TAG_SIZE) != 1 || length != TAG_SIZE) return -1;
    return 0;
}

int dlcrypt_aes256_ctr(const uint8_t key[32], const uint8_t iv[16], const uint8_t *in, size_t n, uint8_t *out) {
    Cipher c;
    if (cipher_init(&c, key, NULL, 0) != 0) return -1;
    int rc = cipher_ctr(&c, iv, in, n, out);
    cipher_free(&c);
    return rc;
}

int dlcrypt_hmac_sha224(const uint8_t *key, size_t key_length, const uint8_t *message, size_t n, uint8_t out[28]) {
    static const uint8_t zero[32];
    Cipher c;
    if (cipher_init(&c, zero, key, key_length) != 0) return -1;
    int rc = cipher_mac(&c, message, n, NULL, 0, NULL, 0, out);
    cipher_free(&c);
    return rc;
}

static void key_check(Cipher *c, uint8_t out[CHECK_SIZE]) {
    static const char label[] = "Drumlin key check 1";
    uint8_t tag[TAG_SIZE];
    if (cipher_mac(c, (const uint8_t *)label, sizeof label - 1, NULL, 0, NULL, 0, tag) != 0) memset(tag, 0, sizeof tag);
    memcpy(out, tag, CHECK_SIZE);
}

enum { KIND_DB = 1, KIND_WAL = 2, KIND_JOURNAL = 3 };
static int page_decrypt(Cipher *c, int kind, uint64_t place, const uint8_t *frame_header, int first, uint8_t *buffer);

int dlcrypt_probe(const uint8_t *head, size_t n, const uint8_t *key) {
    if (n < 16 || memcmp(head, encrypted_magic, 16) != 0) return 0;
    if (!key) return 3;
    if (n < CHECK_AT + CHECK_SIZE) return 2;
    Cipher c;
    if (cipher_init(&c, key, key + 32, 32) != 0) return 2;
    uint8_t check[CHECK_SIZE];
    key_check(&c, check);
    int same = CRYPTO_memcmp(check, head + CHECK_AT, CHECK_SIZE) == 0;
    OPENSSL_cleanse(check, sizeof check);
    int verdict = same ? 1 : 2;
    if (!same && n >= PAGE) {
        /* The key check differs: a wrong key, unless page 1 authenticates under this key (its
           key check was changed). */
        uint8_t *page = malloc(PAGE);
        if (page) {
            memcpy(page, head, PAGE);
            if (page_decrypt(&c, KIND_DB, 1, NULL, 1, page) == 0) verdict = 4;
            OPENSSL_cleanse(page, PAGE);
            free(page);
        }
    }
    cipher_free(&c);
    return verdict;
}

/* ---- Pages --------------------------------------------------------------------------------- */

/* The authenticated context of a page: its kind, its place, and for a frame of the log the frame
 * header's page number and salts. */
static void page_context(uint8_t out[21], int kind, uint64_t place, const uint8_t *frame_header) {
    out[0] = (uint8_t)kind;
    for (int i = 0; i < 8; i++) out[1 + i] = (uint8_t)(place >> (56 - 8 * i));
    memset(out + 9, 0, 12);
    if (frame_header) {
        memcpy(out + 9, frame_header, 4);
        memcpy(out + 13, frame_header + 8, 8);
    }
}

/* Encrypts the plaintext page `in` into `out` (PAGE bytes each). 0 on success. */
static int page_encrypt(Cipher *c, int kind, uint64_t place, const uint8_t *frame_header, int first,
                        const uint8_t check[CHECK_SIZE], const uint8_t *in, uint8_t *out) {
    uint8_t context[21];
    uint8_t *iv = out + DATA;
    if (RAND_bytes(iv, IV_SIZE) != 1) return -1;
    if (cipher_ctr(c, iv, in, DATA, out) != 0) return -1;
    if (first) {
        memcpy(out, encrypted_magic, 16);
        memcpy(out + CHECK_AT, check, CHECK_SIZE);
    }
    page_context(context, kind, place, frame_header);
    return cipher_mac(c, context, sizeof context, iv, IV_SIZE, out, DATA, out + DATA + IV_SIZE);
}

/* Authenticates and decrypts the page `buffer` in place: 0, or -1 when its tag does not match. */
static int page_decrypt(Cipher *c, int kind, uint64_t place, const uint8_t *frame_header, int first, uint8_t *buffer) {
    uint8_t context[21], tag[TAG_SIZE], iv[IV_SIZE];
    page_context(context, kind, place, frame_header);
    memcpy(iv, buffer + DATA, IV_SIZE);
    if (cipher_mac(c, context, sizeof context, iv, IV_SIZE, buffer, DATA, tag) != 0) return -1;
    if (CRYPTO_memcmp(tag, buffer + DATA + IV_SIZE, TAG_SIZE) != 0) return -1;
    if (cipher_ctr(c, iv, buffer, DATA, buffer) != 0) return -1;
    memset(buffer + DATA, 0, DRUMLIN_CRYPT_RESERVE);
    if (first) {
        memcpy(buffer, sqlite_magic, 16);
        memset(buffer + CHECK_AT, 0, CHECK_SIZE);
    }
    return 0;
}

/* ---- The VFS ------------------------------------------------------------------------------- */

typedef struct CryptVfs {
    sqlite3_vfs base;
    sqlite3_vfs *root;
    char name[32];
    Cipher cipher;
    uint8_t check[CHECK_SIZE];
    atomic_int references;  /* the creator's, and one per open file */
} CryptVfs;

typedef struct CryptFile {
    sqlite3_file base;
    CryptVfs *vfs;
    sqlite3_file *real;
    const char *path;
    int kind;               /* KIND_*, or 0: temporary (stream), -1: clear */
    Cipher stream;          /* temporary files: a key of their own */
    uint8_t nonce[8];
    uint8_t *scratch;       /* PAGE bytes */
} CryptFile;

static void vfs_unref(CryptVfs *v) {
    if (atomic_fetch_sub(&v->references, 1) != 1) return;
    cipher_free(&v->cipher);
    OPENSSL_cleanse(v, sizeof *v);
    free(v);
}

static int fail_page(CryptFile *f, const char *what, uint64_t page) {
    snprintf(last_failure, sizeof last_failure, "%s %llu of '%s' failed authentication (a wrong key, or the file was changed outside Drumlin)",
             what, (unsigned long long)page, f->path ? f->path : "a temporary file");
    return SQLITE_IOERR_DATA;
}

static int real_read(CryptFile *f, void *buffer, int amount, sqlite3_int64 offset) {
    return f->real->pMethods->xRead(f->real, buffer, amount, offset);
}

/* Bytes of the real file: its size. */
static sqlite3_int64 real_size(CryptFile *f) {
    sqlite3_int64 size = 0;
    if (f->real->pMethods->xFileSize(f->real, &size) != SQLITE_OK) return -1;
    return size;
}

/* The stream cipher of temporary files: AES-256-CTR, counter block = nonce || block index. */
static int stream_apply(CryptFile *f, uint8_t *buffer, int amount, sqlite3_int64 offset) {
    uint8_t iv[IV_SIZE], skip[16] = {0};
    uint64_t block = (uint64_t)offset / 16;
    int length = 0;
    memcpy(iv, f->nonce, 8);
    for (int i = 0; i < 8; i++) iv[8 + i] = (uint8_t)(block >> (56 - 8 * i));
    if (EVP_EncryptInit_ex(f->stream.aes, NULL, NULL, NULL, iv) != 1) return -1;
    int into = (int)(offset % 16);
    if (into && EVP_EncryptUpdate(f->stream.aes, skip, &length, skip, into) != 1) return -1;
    return EVP_EncryptUpdate(f->stream.aes, buffer, &length, buffer, amount) == 1 ? 0 : -1;
}

/* Where the page holding byte `offset` starts and which page it is; -1 when the offset is not in
 * a page (the log's headers). */
static sqlite3_int64 page_start(int kind, sqlite3_int64 offset) {
    if (kind == KIND_DB) return offset - offset % PAGE;
    if (offset < WAL_HEADER) return -1;
    sqlite3_int64 in = (offset - WAL_HEADER) % FRAME;
    if (in < FRAME_HEADER) return -1;
    return offset - in + FRAME_HEADER;
}

static uint64_t page_place(int kind, sqlite3_int64 start) {
    return kind == KIND_DB ? (uint64_t)(start / PAGE) + 1 : (uint64_t)start;
}

/* Reads the log frame header before the page at `start`, from `buffer` when it holds it, with
 * the salts that authenticate the page in bytes 8-15.
 *
 * Those are the frame header's own salts, except while SQLite owes the transaction's checksums.
 * When one write transaction outgrows the page cache, SQLite spills pages into the log before the
 * commit (pagerStress), and a page spilled and changed again is written over its own frame, page
 * data only (sqlite3WalFrames: iReCksum). From then on to the commit, walEncodeFrame gives every
 * frame it appends a header with zero salts and zero checksums, and at the commit
 * walRewriteChecksums reads each frame from the first one overwritten and writes its 24-byte
 * header again, with the log's salts and new checksums, leaving the page as it is. A page written
 * under a zero-salt header and authenticated with those zeros would then fail under the header
 * that replaced it (issue 50: a frame "failed authentication" after such a commit). Zero salts
 * therefore stand for the log's salts, bytes 16-23 of its header (the 8 bytes SQLite copies into
 * every frame header of that log generation), and the page's context is the same before and after
 * the rewrite. A committed frame never has zero salts, so files written before keep their
 * meaning. */
static int frame_header(CryptFile *f, sqlite3_int64 start, const uint8_t *buffer, sqlite3_int64 offset, int amount, uint8_t out[FRAME_HEADER]) {
    static const uint8_t zero[8];
    sqlite3_int64 at = start - FRAME_HEADER;
    if (buffer && at >= offset && at + FRAME_HEADER <= offset + amount) {
        memcpy(out, buffer + (at - offset), FRAME_HEADER);
    } else {
        int rc = real_read(f, out, FRAME_HEADER, at);
        if (rc != SQLITE_OK) return rc;
    }
    if (memcmp(out + 8, zero, 8) != 0) return SQLITE_OK;
    int rc = real_read(f, out + 8, 8, 16);  /* a log without its header: zeros, and rc says so */
    return rc;
}

/* After a failed page of the log read whole with its header (SQLite rebuilding its index after a
 * crash): a torn write or damage? Damage only when a valid commit frame of the log's generation
 * follows the failed frame. SQLite appends a transaction's frames and then its commit frame, and
 * writes over a frame only within the transaction that appended it (a transaction larger than the
 * page cache writes a spilled page changed again over its own frame: sqlite3WalFrames, iReCksum);
 * a committed frame is never written again until the log starts a new generation. So a frame that
 * a commit follows was committed, and its failure is damage; a frame that no commit follows is in
 * the uncommitted tail, torn by a crash during its write (the last append, or a page written over
 * in place in the middle of the tail, valid frames of the same transaction after it), and is
 * handed to SQLite as zeros, which its checksum rejects: the log ends there, as it would without
 * encryption, and nothing committed is lost. A frame of another generation than the log header's
 * is never used by SQLite: a torn write too.
 *
 * A valid commit frame: its header's salts are the log's as written (zero salts are a commit that
 * never finished its walRewriteChecksums, which SQLite's own salt check rejects), its commit size
 * field (bytes 4-7) is not zero, and its page authenticates. The scan reads frame headers forward
 * to the end of the file and stops at a frame of another generation; it runs only on this failure
 * path, so its cost does not matter. */
static int commit_follows(CryptFile *f, sqlite3_int64 start, const uint8_t header[FRAME_HEADER]) {
    static const uint8_t zero[8];
    uint8_t salts[8];
    sqlite3_int64 size = real_size(f);
    if (size < 0 || real_read(f, salts, 8, 16) != SQLITE_OK) return 0;
    if (memcmp(salts, zero, 8) == 0 || memcmp(header + 8, salts, 8) != 0) return 0;
    uint8_t *page = malloc(PAGE);
    if (!page) return 0;
    int found = 0;
    for (sqlite3_int64 next = start + FRAME; !found && next + PAGE <= size; next += FRAME) {
        uint8_t raw[FRAME_HEADER], other[FRAME_HEADER];
        if (real_read(f, raw, FRAME_HEADER, next - FRAME_HEADER) != SQLITE_OK) break;
        if (frame_header(f, next, raw, next - FRAME_HEADER, FRAME_HEADER, other) != SQLITE_OK) break;
        if (memcmp(other + 8, salts, 8) != 0) break;  /* another generation: SQLite stops before it */
        int commit = raw[4] | raw[5] | raw[6] | raw[7];
        if (!commit || memcmp(raw + 8, salts, 8) != 0) continue;
        found = real_read(f, page, PAGE, next) == SQLITE_OK
            && page_decrypt(&f->vfs->cipher, KIND_WAL, page_place(KIND_WAL, next), other, 0, page) == 0;
    }
    OPENSSL_cleanse(page, PAGE);
    free(page);
    return found;
}

static int crypt_read(sqlite3_file *file, void *target, int amount, sqlite3_int64 offset) {
    CryptFile *f = (CryptFile *)file;
    uint8_t *buffer = target;
    if (f->kind < 0) return real_read(f, target, amount, offset);
    int rc = real_read(f, target, amount, offset);
    if (rc != SQLITE_OK && rc != SQLITE_IOERR_SHORT_READ) return rc;
    if (f->kind == 0) return stream_apply(f, buffer, amount, offset) == 0 ? rc : SQLITE_IOERR_READ;
    if (f->kind == KIND_JOURNAL) {
        /* Only whole pages are encrypted in a journal. */
        if (amount != PAGE || rc != SQLITE_OK) return rc;
        if (page_decrypt(&f->vfs->cipher, KIND_JOURNAL, (uint64_t)offset, NULL, 0, buffer) != 0)
            return fail_page(f, "The journal's page at offset", (uint64_t)offset);
        return rc;
    }
    /* The file's size, read when a page may reach past what was read (-1: not read yet). */
    sqlite3_int64 size = rc == SQLITE_IOERR_SHORT_READ ? real_size(f) : -1;
    sqlite3_int64 end = offset + amount;
    sqlite3_int64 at = offset;
    while (at < end) {
        sqlite3_int64 start = page_start(f->kind, at);
        if (start < 0) {  /* a log header: clear */
            at = at < WAL_HEADER ? WAL_HEADER : at - (at - WAL_HEADER) % FRAME + FRAME_HEADER;
            continue;
        }
        sqlite3_int64 stop = start + PAGE;
        int whole = start >= offset && stop <= end;
        if (size < 0 && !whole) size = real_size(f);
        if (size >= 0 && start >= size) break;  /* past the end: SQLite's zeros */
        if (size >= 0 && stop > size) {
            snprintf(last_failure, sizeof last_failure, "The %s '%s' ends inside a page (%lld bytes long)",
                     f->kind == KIND_DB ? "file" : "write-ahead log", f->path, (long long)size);
            return SQLITE_IOERR_DATA;
        }
        uint8_t header[FRAME_HEADER];
        if (f->kind == KIND_WAL && (rc = frame_header(f, start, buffer, offset, amount, header)) != SQLITE_OK) return rc;
        const uint8_t *context = f->kind == KIND_WAL ? header : NULL;
        uint8_t *page = whole ? buffer + (start - offset) : f->scratch;
        if (!whole && (rc = real_read(f, page, PAGE, start)) != SQLITE_OK) return rc;
        int first = f->kind == KIND_DB && start == 0;
        if (page_decrypt(&f->vfs->cipher, f->kind, page_place(f->kind, start), context, first, page) != 0) {
            if (f->kind == KIND_DB) return fail_page(f, "Page", page_place(KIND_DB, start));
            int with_header = start - FRAME_HEADER >= offset;
            if (!with_header || commit_follows(f, start, header)) {
                uint64_t frame = (uint64_t)((start - FRAME_HEADER - WAL_HEADER) / FRAME) + 1;
                uint32_t number = (uint32_t)header[0] << 24 | (uint32_t)header[1] << 16 | (uint32_t)header[2] << 8 | header[3];
                snprintf(last_failure, sizeof last_failure, "Frame %llu of the write-ahead log '%s' (page %u) failed authentication (a wrong key, or the file was changed outside Drumlin)",
                         (unsigned long long)frame, f->path, number);
                return SQLITE_IOERR_DATA;
            }
            memset(page, 0, PAGE);
        }
        if (!whole) {
            sqlite3_int64 from = at > start ? at : start;
            sqlite3_int64 to = end < stop ? end : stop;
            memcpy(buffer + (from - offset), page + (from - start), (size_t)(to - from));
        }
        at = stop;
    }
    return rc == SQLITE_IOERR_SHORT_READ ? SQLITE_IOERR_SHORT_READ : SQLITE_OK;
}

static int crypt_write(sqlite3_file *file, const void *source, int amount, sqlite3_int64 offset) {
    CryptFile *f = (CryptFile *)file;
    const uint8_t *buffer = source;
    if (f->kind < 0) return f->real->pMethods->xWrite(f->real, source, amount, offset);
    if (f->kind == 0) {
        uint8_t *copy = malloc((size_t)amount);
        if (!copy) return SQLITE_IOERR_NOMEM;
        memcpy(copy, buffer, (size_t)amount);
        int rc = stream_apply(f, copy, amount, offset) == 0 ? f->real->pMethods->xWrite(f->real, copy, amount, offset) : SQLITE_IOERR_WRITE;
        OPENSSL_cleanse(copy, (size_t)amount);
        free(copy);
        return rc;
    }
    if (f->kind == KIND_JOURNAL) {
        if (amount != PAGE) return f->real->pMethods->xWrite(f->real, source, amount, offset);
        if (page_encrypt(&f->vfs->cipher, KIND_JOURNAL, (uint64_t)offset, NULL, 0, NULL, buffer, f->scratch) != 0) return SQLITE_IOERR_WRITE;
        return f->real->pMethods->xWrite(f->real, f->scratch, PAGE, offset);
    }
    sqlite3_int64 end = offset + amount;
    sqlite3_int64 at = offset;
    while (at < end) {
        sqlite3_int64 start = page_start(f->kind, at);
        if (start < 0) {  /* a log header, written as it is */
            sqlite3_int64 next = at < WAL_HEADER ? WAL_HEADER : at - (at - WAL_HEADER) % FRAME + FRAME_HEADER;
            if (next > end) next = end;
            int rc = f->real->pMethods->xWrite(f->real, buffer + (at - offset), (int)(next - at), at);
            if (rc != SQLITE_OK) return rc;
            at = next;
            continue;
        }
        if (start != at || start + PAGE > end) {
            snprintf(last_failure, sizeof last_failure, "SQLite wrote part of a page of '%s' (%d bytes at %lld): encrypted files are written in whole pages",
                     f->path, amount, (long long)offset);
            return SQLITE_IOERR_WRITE;
        }
        const uint8_t *plain = buffer + (start - offset);
        int first = f->kind == KIND_DB && start == 0;
        if (first) {
            static const uint8_t zero[CHECK_SIZE];
            if (memcmp(plain, sqlite_magic, 16) != 0 || memcmp(plain + CHECK_AT, zero, CHECK_SIZE) != 0) {
                snprintf(last_failure, sizeof last_failure, "Page 1 of '%s' is not an SQLite header", f->path);
                return SQLITE_IOERR_WRITE;
            }
        }
        uint8_t header[FRAME_HEADER];
        if (f->kind == KIND_WAL) {
            int rc = frame_header(f, start, buffer, offset, amount, header);
            if (rc != SQLITE_OK) return rc == SQLITE_IOERR_SHORT_READ ? SQLITE_IOERR_WRITE : rc;
        }
        if (page_encrypt(&f->vfs->cipher, f->kind, page_place(f->kind, start), f->kind == KIND_WAL ? header : NULL,
                         first, f->vfs->check, plain, f->scratch) != 0) return SQLITE_IOERR_WRITE;
        int rc = f->real->pMethods->xWrite(f->real, f->scratch, PAGE, start);
        if (rc != SQLITE_OK) return rc;
        at = start + PAGE;
    }
    return SQLITE_OK;
}

static int crypt_close(sqlite3_file *file) {
    CryptFile *f = (CryptFile *)file;
    int rc = f->real->pMethods ? f->real->pMethods->xClose(f->real) : SQLITE_OK;
    if (f->scratch) { OPENSSL_cleanse(f->scratch, PAGE); free(f->scratch); }
    cipher_free(&f->stream);
    CryptVfs *v = f->vfs;
    memset((uint8_t *)f + sizeof(sqlite3_file), 0, sizeof *f - sizeof(sqlite3_file));
    vfs_unref(v);
    return rc;
}

#define REAL(f) (((CryptFile *)(f))->real)
static int crypt_truncate(sqlite3_file *f, sqlite3_int64 size) { return REAL(f)->pMethods->xTruncate(REAL(f), size); }
static int crypt_sync(sqlite3_file *f, int flags) { return REAL(f)->pMethods->xSync(REAL(f), flags); }
static int crypt_file_size(sqlite3_file *f, sqlite3_int64 *size) { return REAL(f)->pMethods->xFileSize(REAL(f), size); }
static int crypt_lock(sqlite3_file *f, int lock) { return REAL(f)->pMethods->xLock(REAL(f), lock); }
static int crypt_unlock(sqlite3_file *f, int lock) { return REAL(f)->pMethods->xUnlock(REAL(f), lock); }
static int crypt_check_reserved(sqlite3_file *f, int *out) { return REAL(f)->pMethods->xCheckReservedLock(REAL(f), out); }
static int crypt_file_control(sqlite3_file *f, int op, void *arg) {
    /* No memory-mapped reads: every page goes through crypt_read. */
    if (op == SQLITE_FCNTL_MMAP_SIZE) { *(sqlite3_int64 *)arg = 0; return SQLITE_OK; }
    return REAL(f)->pMethods->xFileControl(REAL(f), op, arg);
}
static int crypt_sector_size(sqlite3_file *f) { return REAL(f)->pMethods->xSectorSize(REAL(f)); }
static int crypt_device(sqlite3_file *f) {
    return REAL(f)->pMethods->xDeviceCharacteristics(REAL(f)) & ~SQLITE_IOCAP_BATCH_ATOMIC;
}
static int crypt_shm_map(sqlite3_file *f, int region, int size, int extend, void volatile **out) {
    return REAL(f)->pMethods->xShmMap(REAL(f), region, size, extend, out);
}
static int crypt_shm_lock(sqlite3_file *f, int offset, int n, int flags) { return REAL(f)->pMethods->xShmLock(REAL(f), offset, n, flags); }
static void crypt_shm_barrier(sqlite3_file *f) { REAL(f)->pMethods->xShmBarrier(REAL(f)); }
static int crypt_shm_unmap(sqlite3_file *f, int delete_flag) { return REAL(f)->pMethods->xShmUnmap(REAL(f), delete_flag); }
static int crypt_fetch(sqlite3_file *f, sqlite3_int64 offset, int amount, void **out) {
    (void)f; (void)offset; (void)amount;
    *out = NULL;
    return SQLITE_OK;
}
static int crypt_unfetch(sqlite3_file *f, sqlite3_int64 offset, void *p) {
    (void)f; (void)offset; (void)p;
    return SQLITE_OK;
}

static const sqlite3_io_methods crypt_methods = {
    3, crypt_close, crypt_read, crypt_write, crypt_truncate, crypt_sync, crypt_file_size, crypt_lock,
    crypt_unlock, crypt_check_reserved, crypt_file_control, crypt_sector_size, crypt_device,
    crypt_shm_map, crypt_shm_lock, crypt_shm_barrier, crypt_shm_unmap, crypt_fetch, crypt_unfetch,
};

static int crypt_open(sqlite3_vfs *vfs, sqlite3_filename name, sqlite3_file *file, int flags, int *out_flags) {
    CryptVfs *v = (CryptVfs *)vfs;
    CryptFile *f = (CryptFile *)file;
    memset(f, 0, sizeof *f);
    f->real = (sqlite3_file *)(f + 1);
    f->vfs = v;
    f->path = name;
    if (flags & SQLITE_OPEN_MAIN_DB) f->kind = KIND_DB;
    else if (flags & SQLITE_OPEN_WAL) f->kind = KIND_WAL;
    else if (flags & SQLITE_OPEN_MAIN_JOURNAL) f->kind = KIND_JOURNAL;
    else if (flags & SQLITE_OPEN_SUPER_JOURNAL) f->kind = -1;  /* file names only */
    else f->kind = 0;
    if (f->kind == 0) {
        uint8_t key[32];
        int ok = RAND_bytes(key, sizeof key) == 1 && RAND_bytes(f->nonce, sizeof f->nonce) == 1
            && cipher_init(&f->stream, key, NULL, 0) == 0;
        OPENSSL_cleanse(key, sizeof key);
        if (!ok) return SQLITE_CANTOPEN;
    } else if (f->kind > 0 && !(f->scratch = malloc(PAGE))) {
        return SQLITE_NOMEM;
    }
    int rc = v->root->xOpen(v->root, name, f->real, flags, out_flags);
    if (rc != SQLITE_OK) {
        if (f->real->pMethods) f->real->pMethods->xClose(f->real);
        free(f->scratch);
        cipher_free(&f->stream);
        f->base.pMethods = NULL;
        return rc;
    }
    atomic_fetch_add(&v->references, 1);
    f->base.pMethods = &crypt_methods;
    return SQLITE_OK;
}

#define ROOT(vfs) (((CryptVfs *)(vfs))->root)
static int crypt_delete(sqlite3_vfs *vfs, const char *name, int sync) { return ROOT(vfs)->xDelete(ROOT(vfs), name, sync); }
static int crypt_access(sqlite3_vfs *vfs, const char *name, int flags, int *out) { return ROOT(vfs)->xAccess(ROOT(vfs), name, flags, out); }
static int crypt_full_pathname(sqlite3_vfs *vfs, const char *name, int n, char *out) { return ROOT(vfs)->xFullPathname(ROOT(vfs), name, n, out); }
static void *crypt_dl_open(sqlite3_vfs *vfs, const char *name) { return ROOT(vfs)->xDlOpen(ROOT(vfs), name); }
static void crypt_dl_error(sqlite3_vfs *vfs, int n, char *out) { ROOT(vfs)->xDlError(ROOT(vfs), n, out); }
static void (*crypt_dl_sym(sqlite3_vfs *vfs, void *p, const char *symbol))(void) { return ROOT(vfs)->xDlSym(ROOT(vfs), p, symbol); }
static void crypt_dl_close(sqlite3_vfs *vfs, void *p) { ROOT(vfs)->xDlClose(ROOT(vfs), p); }
static int crypt_randomness(sqlite3_vfs *vfs, int n, char *out) { return ROOT(vfs)->xRandomness(ROOT(vfs), n, out); }
static int crypt_sleep(sqlite3_vfs *vfs, int microseconds) { return ROOT(vfs)->xSleep(ROOT(vfs), microseconds); }
static int crypt_current_time(sqlite3_vfs *vfs, double *out) { return ROOT(vfs)->xCurrentTime(ROOT(vfs), out); }
static int crypt_last_error(sqlite3_vfs *vfs, int n, char *out) { return ROOT(vfs)->xGetLastError(ROOT(vfs), n, out); }
static int crypt_current_time64(sqlite3_vfs *vfs, sqlite3_int64 *out) { return ROOT(vfs)->xCurrentTimeInt64(ROOT(vfs), out); }
static int crypt_set_system_call(sqlite3_vfs *vfs, const char *name, sqlite3_syscall_ptr p) { return ROOT(vfs)->xSetSystemCall(ROOT(vfs), name, p); }
static sqlite3_syscall_ptr crypt_get_system_call(sqlite3_vfs *vfs, const char *name) { return ROOT(vfs)->xGetSystemCall(ROOT(vfs), name); }
static const char *crypt_next_system_call(sqlite3_vfs *vfs, const char *name) { return ROOT(vfs)->xNextSystemCall(ROOT(vfs), name); }

void *dlcrypt_vfs_create(const uint8_t key[DRUMLIN_CRYPT_KEY_SIZE], char name[32]) {
    static atomic_ulong counter;
    sqlite3_vfs *root = sqlite3_vfs_find(NULL);
    if (!root || root->iVersion < 3) return NULL;
    CryptVfs *v = calloc(1, sizeof *v);
    if (!v) return NULL;
    if (cipher_init(&v->cipher, key, key + 32, 32) != 0) { free(v); return NULL; }
    key_check(&v->cipher, v->check);
    v->root = root;
    snprintf(v->name, sizeof v->name, "drumlin-crypt-%lu", (unsigned long)atomic_fetch_add(&counter, 1));
    v->base = (sqlite3_vfs){
        .iVersion = 3, .szOsFile = (int)sizeof(CryptFile) + root->szOsFile, .mxPathname = root->mxPathname,
        .zName = v->name, .xOpen = crypt_open, .xDelete = crypt_delete, .xAccess = crypt_access,
        .xFullPathname = crypt_full_pathname, .xDlOpen = crypt_dl_open, .xDlError = crypt_dl_error,
        .xDlSym = crypt_dl_sym, .xDlClose = crypt_dl_close, .xRandomness = crypt_randomness,
        .xSleep = crypt_sleep, .xCurrentTime = crypt_current_time, .xGetLastError = crypt_last_error,
        .xCurrentTimeInt64 = crypt_current_time64, .xSetSystemCall = crypt_set_system_call,
        .xGetSystemCall = crypt_get_system_call, .xNextSystemCall = crypt_next_system_call,
    };
    atomic_init(&v->references, 1);
    if (sqlite3_vfs_register(&v->base, 0) != SQLITE_OK) { vfs_unref(v); return NULL; }
    memcpy(name, v->name, sizeof v->name);
    return v;
}

void dlcrypt_vfs_release(void *vfs) {
    if (!vfs) return;
    CryptVfs *v = vfs;
    sqlite3_vfs_unregister(&v->base);
    vfs_unref(v);
}

int dlcrypt_reserve_bytes(sqlite3 *db) {
    int reserve = DRUMLIN_CRYPT_RESERVE;
    return sqlite3_file_control(db, "main", SQLITE_FCNTL_RESERVE_BYTES, &reserve);
}
