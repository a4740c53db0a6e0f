/* The program binary format (binfmt.h): the cache entry of a build (metadata.json,
 * model.so, the generated Verilog, the build log and the compiler's inputs) packed into
 * one blob, which CL_PROGRAM_BINARIES hands out, `clhls build -o` writes and
 * clCreateProgramWithBinary takes back. Building such a program unpacks the blob into
 * the build cache and loads it; nothing is compiled. A compiled object
 * (clCompileProgram) or a library (clLinkProgram -create-library) is a blob of one
 * file, program.bc, its LLVM bitcode, which clLinkProgram links.
 *
 * Layout (integers little-endian):
 *   0   magic "CLHLSBIN" (8 bytes)
 *   8   format version (u32, BINFMT_VERSION; version 1, which had no type, is read
 *       as an executable)
 *   12  header size (u32, BINFMT_HEADER)
 *   16  board name (64 bytes, NUL-padded): the board the model was built for
 *   80  tool version (16 bytes, NUL-padded): the clhls that built it (informative)
 *   96  payload size (u64): the bytes after the header
 *   104 content hash (16 bytes): XXH3-128, canonical form, of the whole blob with
 *       these 16 bytes taken as zero
 *   120 number of files (u32)
 *   124 binary type (u32): CL_PROGRAM_BINARY_TYPE_EXECUTABLE (4),
 *       CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT (1) or CL_PROGRAM_BINARY_TYPE_LIBRARY (2)
 *       (version 1: reserved, 0)
 *   128 the files, each: path length (u32), mode (u32: 0755 or 0644), size (u64),
 *       the path (relative to the entry, '/'-separated, no "." or ".." part), the bytes.
 * A blob is accepted only whole: every field checked, the hash equal, every file inside
 * the payload, metadata.json and model.so present in an executable and program.bc in
 * an object or library, the board the device's (when the caller names one). It unpacks
 * into <cache>/bin-<hash>, written in a scratch directory with a manifest
 * (common/manifest.h) and renamed into place, so an entry is either whole or absent; an
 * entry unpacked before is used only when its manifest checks, else unpacked again.
 * An entry is packed only when its manifest checks. */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include "fsutil.h"
#include "binfmt.h"
#include "manifest.h"

#define BINFMT_VERSION 2u
#define BINFMT_HEADER 128u
#define OFF_VERSION 8
#define OFF_HEADER 12
#define OFF_BOARD 16
#define BOARD_LEN 64
#define OFF_TOOL 80
#define TOOL_LEN 16
#define OFF_PAYLOAD 96
#define OFF_HASH 104
#define OFF_NFILES 120
#define OFF_TYPE 124
#define FILE_HEADER 16u         /* path length, mode, size */
#define MAX_PATH_LEN 1024u
#define MAX_FILES 100000u

static const char magic[8] = {'C', 'L', 'H', 'L', 'S', 'B', 'I', 'N'};

static void put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static void put64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static uint32_t get32(const unsigned char *p)
{
    uint32_t v = 0;
    for (int i = 3; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static uint64_t get64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* The content hash of a blob: its bytes with the hash field taken as zero. */
static void blob_hash(const unsigned char *blob, size_t len, unsigned char out[16])
{
    static const unsigned char zero[16];
    XXH3_state_t *st = XXH3_createState();
    XXH3_128bits_reset(st);
    XXH3_128bits_update(st, blob, OFF_HASH);
    XXH3_128bits_update(st, zero, sizeof zero);
    XXH3_128bits_update(st, blob + OFF_HASH + 16, len - OFF_HASH - 16);
    XXH128_canonical_t c;
    XXH128_canonicalFromHash(&c, XXH3_128bits_digest(st));
    XXH3_freeState(st);
    memcpy(out, c.digest, 16);
}

/* ---- allocation through the caller's functions ---- */

static void *mem_alloc(const binfmt_alloc *a, size_t size)
{
    return a && a->alloc ? a->alloc(size) : calloc(1, size ? size : 1);
}

static void *mem_realloc(const binfmt_alloc *a, void *p, size_t size)
{
    return a && a->realloc ? a->realloc(p, size) : realloc(p, size ? size : 1);
}

static void mem_free(const binfmt_alloc *a, void *p)
{
    if (a && a->free)
        a->free(p);
    else
        free(p);
}

static char *mem_strdup(const binfmt_alloc *a, const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = mem_alloc(a, n);
    if (d)
        memcpy(d, s, n);
    return d;
}

/* The whole file at path, NUL-terminated, its size in *len; NULL when unreadable. */
static unsigned char *read_file(const binfmt_alloc *a, const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    unsigned char *buf = NULL;
    long n = -1;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0)
        buf = mem_alloc(a, (size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        mem_free(a, buf);
        buf = NULL;
    }
    fclose(f);
    *len = buf ? (size_t)n : 0;
    return buf;
}

/* ---- packing ---- */

/* The files of an entry, relative paths. */
typedef struct file_list {
    const binfmt_alloc *a;      /* whose memory */
    char **paths;               /* relative paths */
    size_t n, cap;              /* entries and capacity */
} file_list;

static int list_add(file_list *l, const char *path)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 16;
        char **p = mem_realloc(l->a, l->paths, cap * sizeof *p);
        if (!p)
            return -1;
        l->paths = p;
        l->cap = cap;
    }
    l->paths[l->n] = mem_strdup(l->a, path);
    if (!l->paths[l->n])
        return -1;
    l->n++;
    return 0;
}

static void list_free(file_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        mem_free(l->a, l->paths[i]);
    mem_free(l->a, l->paths);
}

/* Adds every regular file under root/rel (rel "" for the root) to l. */
static int list_dir(const char *root, const char *rel, file_list *l, int depth)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s%s%s", root, *rel ? "/" : "", rel);
    DIR *d = opendir(dir);
    if (!d || depth > 8) {
        if (d)
            closedir(d);
        return -1;
    }
    int rc = 0;
    struct dirent *de;
    while (rc == 0 && (de = readdir(d))) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        if (!*rel && !strcmp(de->d_name, "waves"))
            continue; /* the traced model (CLHLS_WAVES): built again where needed */
        char path[4096], full[8192];
        snprintf(path, sizeof path, "%s%s%s", rel, *rel ? "/" : "", de->d_name);
        snprintf(full, sizeof full, "%s/%s", root, path);
        struct stat st;
        if (lstat(full, &st) != 0)
            rc = -1;
        else if (S_ISDIR(st.st_mode))
            rc = list_dir(root, path, l, depth + 1);
        else if (S_ISREG(st.st_mode))
            rc = list_add(l, path);
    }
    closedir(d);
    return rc;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Packs n files (relative paths, contents, sizes, modes) into a new blob. */
static int pack_files(const binfmt_alloc *a, char *const *paths, unsigned char *const *data,
                      const size_t *sizes, const uint32_t *modes, size_t n, const char *board,
                      unsigned type, unsigned char **out, size_t *out_len, char *err,
                      size_t errlen)
{
    size_t total = BINFMT_HEADER;
    for (size_t i = 0; i < n; i++)
        total += FILE_HEADER + strlen(paths[i]) + sizes[i];
    unsigned char *blob = mem_alloc(a, total);
    if (!blob) {
        snprintf(err, errlen, "out of host memory");
        return -1;
    }
    memcpy(blob, magic, sizeof magic);
    put32(blob + OFF_VERSION, BINFMT_VERSION);
    put32(blob + OFF_HEADER, BINFMT_HEADER);
    memcpy(blob + OFF_BOARD, board, strlen(board));
    snprintf((char *)blob + OFF_TOOL, TOOL_LEN, "%s", hls_version());
    put64(blob + OFF_PAYLOAD, total - BINFMT_HEADER);
    put32(blob + OFF_NFILES, (uint32_t)n);
    put32(blob + OFF_TYPE, (uint32_t)type);
    size_t at = BINFMT_HEADER;
    for (size_t i = 0; i < n; i++) {
        size_t plen = strlen(paths[i]);
        put32(blob + at, (uint32_t)plen);
        put32(blob + at + 4, modes[i]);
        put64(blob + at + 8, sizes[i]);
        memcpy(blob + at + FILE_HEADER, paths[i], plen);
        if (sizes[i])
            memcpy(blob + at + FILE_HEADER + plen, data[i], sizes[i]);
        at += FILE_HEADER + plen + sizes[i];
    }
    blob_hash(blob, total, blob + OFF_HASH);
    *out = blob;
    *out_len = total;
    return 0;
}

int binfmt_pack_entry(const binfmt_alloc *a, const char *entry_dir, const char *board,
                      unsigned char **out, size_t *out_len, char *err, size_t errlen)
{
    if (strlen(board) >= BOARD_LEN) {
        snprintf(err, errlen, "board name '%s' longer than %d characters", board, BOARD_LEN - 1);
        return -1;
    }
    char why[600];
    int damaged = hls_manifest_check(entry_dir, why, sizeof why);
    if (damaged) {
        snprintf(err, errlen, "%s the build's cache entry %s: %s",
                 damaged < 0 ? "cannot check" : "damaged:", entry_dir, why);
        return -1;
    }
    file_list l = {.a = a};
    if (list_dir(entry_dir, "", &l, 0) != 0 || l.n == 0) {
        snprintf(err, errlen, "cannot read the build's cache entry %s", entry_dir);
        list_free(&l);
        return -1;
    }
    qsort(l.paths, l.n, sizeof *l.paths, cmp_str);
    unsigned char **data = mem_alloc(a, l.n * sizeof *data);
    size_t *sizes = mem_alloc(a, l.n * sizeof *sizes);
    uint32_t *modes = mem_alloc(a, l.n * sizeof *modes);
    int rc = data && sizes && modes ? 0 : -1;
    if (rc)
        snprintf(err, errlen, "out of host memory");
    for (size_t i = 0; rc == 0 && i < l.n; i++) {
        char full[8192];
        snprintf(full, sizeof full, "%s/%s", entry_dir, l.paths[i]);
        struct stat st;
        data[i] = read_file(a, full, &sizes[i]);
        if (!data[i] || stat(full, &st) != 0) {
            snprintf(err, errlen, "cannot read %s", full);
            rc = -1;
            break;
        }
        modes[i] = (st.st_mode & S_IXUSR) ? 0755 : 0644;
    }
    if (rc == 0)
        rc = pack_files(a, l.paths, data, sizes, modes, l.n, board, BINFMT_EXECUTABLE, out,
                        out_len, err, errlen);
    for (size_t i = 0; data && i < l.n; i++)
        mem_free(a, data[i]);
    mem_free(a, data);
    mem_free(a, sizes);
    mem_free(a, modes);
    list_free(&l);
    return rc;
}

int binfmt_pack_object(const binfmt_alloc *a, const unsigned char *bitcode, size_t len,
                       const char *board, unsigned type, unsigned char **out,
                       size_t *out_len, char *err, size_t errlen)
{
    if (strlen(board) >= BOARD_LEN) {
        snprintf(err, errlen, "board name '%s' longer than %d characters", board, BOARD_LEN - 1);
        return -1;
    }
    char *path = "program.bc";
    unsigned char *data = (unsigned char *)bitcode;
    uint32_t mode = 0644;
    return pack_files(a, &path, &data, &len, &mode, 1, board, type, out, out_len, err, errlen);
}

/* ---- checking ---- */

/* 1 when path is a safe relative path: no empty, "." or ".." component. */
static int safe_path(const char *p, size_t len)
{
    if (len == 0 || len > MAX_PATH_LEN || p[0] == '/')
        return 0;
    size_t start = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i < len && p[i] == '\0')
            return 0;
        if (i == len || p[i] == '/') {
            size_t n = i - start;
            if (n == 0 || (n == 1 && p[start] == '.') ||
                (n == 2 && p[start] == '.' && p[start + 1] == '.'))
                return 0;
            start = i + 1;
        }
    }
    return 1;
}

int binfmt_check(const unsigned char *blob, size_t len, const char *board, unsigned *type_out,
                 char *err, size_t errlen)
{
    if (len < BINFMT_HEADER || memcmp(blob, magic, sizeof magic) != 0) {
        snprintf(err, errlen, "not a clhls program binary");
        return -1;
    }
    uint32_t version = get32(blob + OFF_VERSION), type = get32(blob + OFF_TYPE);
    if (version == 1) /* version 1 had only executables, and 0 here */
        type = type == 0 ? BINFMT_EXECUTABLE : 0;
    if ((version != BINFMT_VERSION && version != 1) ||
        get32(blob + OFF_HEADER) != BINFMT_HEADER) {
        snprintf(err, errlen, "program binary of format %u, expected %u", version,
                 BINFMT_VERSION);
        return -1;
    }
    if (type != BINFMT_EXECUTABLE && type != BINFMT_COMPILED_OBJECT && type != BINFMT_LIBRARY) {
        snprintf(err, errlen, "program binary of unknown type %u", type);
        return -1;
    }
    if (get64(blob + OFF_PAYLOAD) != len - BINFMT_HEADER) {
        snprintf(err, errlen, "program binary truncated or padded: %zu bytes, header says %llu",
                 len, (unsigned long long)(get64(blob + OFF_PAYLOAD) + BINFMT_HEADER));
        return -1;
    }
    unsigned char h[16];
    blob_hash(blob, len, h);
    if (memcmp(h, blob + OFF_HASH, 16) != 0) {
        snprintf(err, errlen, "program binary corrupt: content hash mismatch");
        return -1;
    }
    char name[BOARD_LEN + 1];
    memcpy(name, blob + OFF_BOARD, BOARD_LEN);
    name[BOARD_LEN] = 0;
    if (board && strcmp(name, board) != 0) {
        snprintf(err, errlen, "program binary built for board '%s', the device is '%s'", name,
                 board);
        return -1;
    }
    uint32_t nfiles = get32(blob + OFF_NFILES);
    size_t at = BINFMT_HEADER;
    int metadata = 0, model = 0, bitcode = 0;
    for (uint32_t i = 0; i < nfiles && nfiles <= MAX_FILES; i++) {
        if (len - at < FILE_HEADER)
            break;
        uint32_t plen = get32(blob + at), mode = get32(blob + at + 4);
        uint64_t size = get64(blob + at + 8);
        at += FILE_HEADER;
        if (plen > len - at || !safe_path((const char *)blob + at, plen) ||
            (mode != 0755 && mode != 0644) || size > len - at - plen)
            break;
        metadata |= plen == 13 && !memcmp(blob + at, "metadata.json", 13);
        model |= plen == 8 && !memcmp(blob + at, "model.so", 8);
        bitcode |= plen == 10 && !memcmp(blob + at, "program.bc", 10);
        at += plen + size;
        int whole = type == BINFMT_EXECUTABLE ? metadata && model : bitcode;
        if (i + 1 == nfiles && at == len && whole) {
            if (type_out)
                *type_out = type;
            return 0;
        }
    }
    snprintf(err, errlen, "program binary malformed: bad file table");
    return -1;
}

/* ---- unpacking ---- */

/* Writes the files of a checked blob under dir. */
static int write_files(const unsigned char *blob, size_t len, const char *dir)
{
    uint32_t nfiles = get32(blob + OFF_NFILES);
    size_t at = BINFMT_HEADER;
    for (uint32_t i = 0; i < nfiles; i++) {
        uint32_t plen = get32(blob + at), mode = get32(blob + at + 4);
        size_t size = (size_t)get64(blob + at + 8);
        const char *p = (const char *)blob + at + FILE_HEADER;
        char path[8192];
        snprintf(path, sizeof path, "%s/%.*s", dir, (int)plen, p);
        char *slash = strrchr(path, '/');
        *slash = '\0';
        if (hls_mkdir_p(path) != 0)
            return -1;
        *slash = '/';
        FILE *f = fopen(path, "wb");
        if (!f)
            return -1;
        size_t wrote = fwrite(blob + at + FILE_HEADER + plen, 1, size, f);
        if (fclose(f) != 0 || wrote != size || chmod(path, (mode_t)mode) != 0)
            return -1;
        at += FILE_HEADER + plen + size;
    }
    return 0;
}

char *binfmt_unpack(const binfmt_alloc *a, const unsigned char *blob, size_t len, char *err,
                    size_t errlen)
{
    char root[4096], entry[4300], tmp[4400];
    if (errlen)
        *err = '\0'; /* empty unless something is to be said, whichever way it returns */
    hls_cache_root(NULL, root, sizeof root);
    char hex[33];
    for (int i = 0; i < 16; i++)
        snprintf(hex + 2 * i, 3, "%02x", blob[OFF_HASH + i]);
    snprintf(entry, sizeof entry, "%s/bin-%s", root, hex);
    /* Unpacked before (the name is the content's hash): used when still whole. */
    char why[600];
    int usable = hls_entry_usable(entry, "metadata.json", why, sizeof why);
    if (usable > 0)
        return mem_strdup(a, entry);
    if (usable < 0) {
        snprintf(err, errlen, "cannot check the cache entry %s: %s", entry, why);
        return NULL;
    }
    snprintf(tmp, sizeof tmp, "%s/tmp-bin-%s-XXXXXX", root, hex);
    if (hls_mkdir_p(root) != 0 || !mkdtemp(tmp)) {
        snprintf(err, errlen, "cannot create a directory in the cache %s: %s", root,
                 strerror(errno));
        return NULL;
    }
    if (write_files(blob, len, tmp) != 0 || hls_manifest_write(tmp) != 0) {
        snprintf(err, errlen, "cannot unpack the program binary into %s: %s", tmp,
                 strerror(errno));
        hls_remove_tree(tmp);
        return NULL;
    }
    if (hls_entry_publish(tmp, entry, "metadata.json", why, sizeof why) != 0) {
        snprintf(err, errlen, "cannot unpack the program binary into %s: %s", entry, why);
        return NULL;
    }
    if (*why) /* the earlier unpacking was damaged */
        snprintf(err, errlen, "cache entry bin-%s is damaged (%s); unpacked again", hex, why);
    return mem_strdup(a, entry);
}

unsigned char *binfmt_object(const binfmt_alloc *a, const unsigned char *blob, size_t len,
                             size_t *out_len)
{
    uint32_t nfiles = get32(blob + OFF_NFILES);
    size_t at = BINFMT_HEADER;
    for (uint32_t i = 0; i < nfiles && at < len; i++) {
        uint32_t plen = get32(blob + at);
        size_t size = (size_t)get64(blob + at + 8);
        const unsigned char *p = blob + at + FILE_HEADER;
        if (plen == 10 && !memcmp(p, "program.bc", 10)) {
            unsigned char *bc = mem_alloc(a, size);
            if (bc && size)
                memcpy(bc, p + plen, size);
            *out_len = bc ? size : 0;
            return bc;
        }
        at += FILE_HEADER + plen + size;
    }
    *out_len = 0;
    return NULL;
}
