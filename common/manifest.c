/* Cache entry manifests (manifest.h):
 *   {"format": 1, "files": [{"path": "metadata.json", "size": 2113,
 *                            "xxh3": "9c5e0d0f3b6a1e27"}, ...]}
 * paths relative to the entry, sorted, '/'-separated; xxh3 the XXH3-64 hash of the
 * contents in 16 hexadecimal digits. The manifest is read as untrusted input: every
 * field is checked and a path must stay inside the entry. Checking an entry reads
 * every file it lists once (a model of a few MB hashes in milliseconds). */
#define _XOPEN_SOURCE 700
#include "manifest.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#define XXH_STATIC_LINKING_ONLY /* XXH3_state_t on the stack */
#include <xxhash.h>

#include "alloc.h"
#include "fsutil.h"

#define MAX_DEPTH 8 /* directory levels under an entry */

/* The size and XXH3-64 hash of the file at path; 0, or -1 (errno set). */
static int hash_file(const char *path, long long *size, XXH64_hash_t *hash)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    XXH3_state_t st;
    XXH3_64bits_reset(&st);
    enum { CHUNK = 65536 }; /* on the heap: a build's stack use stays small */
    char *buf = hls_alloc(CHUNK);
    long long total = 0;
    ssize_t n;
    while ((n = read(fd, buf, CHUNK)) > 0) {
        XXH3_64bits_update(&st, buf, (size_t)n);
        total += n;
    }
    int saved = errno;
    free(buf);
    close(fd);
    errno = saved;
    if (n < 0)
        return -1;
    *size = total;
    *hash = XXH3_64bits_digest(&st);
    return 0;
}

/* ---- writing ---- */

/* The files of an entry, relative paths. */
typedef struct path_list {
    char **paths;   /* relative paths (hls_try_strdup) */
    size_t n, cap;  /* entries and capacity */
} path_list;

static void list_free(path_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->paths[i]);
    free(l->paths);
}

/* Adds every regular file under root/rel (rel "" for root) but the manifest to l. */
static int list_files(const char *root, const char *rel, path_list *l, int depth)
{
    char dir[4096];
    if (depth > MAX_DEPTH ||
        snprintf(dir, sizeof dir, "%s%s%s", root, *rel ? "/" : "", rel) >= (int)sizeof dir) {
        errno = ENAMETOOLONG;
        return -1;
    }
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int rc = 0;
    struct dirent *de;
    while (rc == 0 && (de = readdir(d))) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
            (!*rel && !strcmp(de->d_name, HLS_MANIFEST_FILE)))
            continue;
        char path[4096], full[8192];
        int n = snprintf(path, sizeof path, "%s%s%s", rel, *rel ? "/" : "", de->d_name);
        struct stat st;
        if (n < 0 || (size_t)n >= sizeof path || hls_path_join(full, sizeof full, root, path)) {
            errno = ENAMETOOLONG;
            rc = -1;
        } else if (lstat(full, &st) != 0) {
            rc = -1;
        } else if (S_ISDIR(st.st_mode)) {
            rc = list_files(root, path, l, depth + 1);
        } else if (S_ISREG(st.st_mode)) {
            if (l->n == l->cap) {
                size_t cap = l->cap ? 2 * l->cap : 16;
                char **p = hls_try_realloc(l->paths, cap * sizeof *p);
                if (!p) {
                    rc = -1;
                    break;
                }
                l->paths = p;
                l->cap = cap;
            }
            if (!(l->paths[l->n] = hls_try_strdup(path)))
                rc = -1;
            else
                l->n++;
        }
    }
    int saved = errno;
    closedir(d);
    errno = saved;
    return rc;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int hls_manifest_write(const char *dir)
{
    path_list l = {0};
    int rc = list_files(dir, "", &l, 0);
    if (rc == 0)
        qsort(l.paths, l.n, sizeof *l.paths, by_name);
    cJSON *m = cJSON_CreateObject();
    cJSON_AddNumberToObject(m, "format", HLS_MANIFEST_FORMAT);
    cJSON *files = cJSON_AddArrayToObject(m, "files");
    for (size_t i = 0; rc == 0 && i < l.n; i++) {
        char full[8192], hex[17];
        long long size;
        XXH64_hash_t hash;
        snprintf(full, sizeof full, "%s/%s", dir, l.paths[i]);
        if ((rc = hash_file(full, &size, &hash)) != 0)
            break;
        snprintf(hex, sizeof hex, "%016llx", (unsigned long long)hash);
        cJSON *f = cJSON_CreateObject();
        cJSON_AddItemToArray(files, f);
        cJSON_AddStringToObject(f, "path", l.paths[i]);
        cJSON_AddNumberToObject(f, "size", (double)size);
        if (!cJSON_AddStringToObject(f, "xxh3", hex))
            rc = -1;
    }
    list_free(&l);
    char *text = rc == 0 ? cJSON_PrintUnformatted(m) : NULL;
    cJSON_Delete(m);
    if (rc == 0 && !text)
        errno = ENOMEM;
    char path[4200];
    if (text && hls_path_join(path, sizeof path, dir, HLS_MANIFEST_FILE) == 0)
        rc = hls_write_text(path, text, 1);
    else
        rc = -1;
    cJSON_free(text);
    return rc;
}

/* ---- checking ---- */


/* Checks one file entry of the manifest against the file; 0, or 1 with why. */
static int check_file(const char *dir, const cJSON *f, char *why, size_t len)
{
    const char *path = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(f, "path"));
    const char *xxh3 = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(f, "xxh3"));
    const cJSON *size = cJSON_GetObjectItemCaseSensitive(f, "size");
    char *end = NULL;
    unsigned long long want = xxh3 && strlen(xxh3) == 16 ? strtoull(xxh3, &end, 16) : 0;
    if (!path || !hls_path_stays_inside(path) || !cJSON_IsNumber(size) ||
        !(size->valuedouble >= 0) || size->valuedouble > 9e15 || !end || *end) {
        snprintf(why, len, HLS_MANIFEST_FILE ": a bad file entry");
        return 1;
    }
    char full[8192];
    long long got;
    XXH64_hash_t hash;
    snprintf(full, sizeof full, "%s/%s", dir, path);
    if (hash_file(full, &got, &hash) != 0) {
        snprintf(why, len, "%s: %s", path, errno == ENOENT ? "missing" : strerror(errno));
        return 1;
    }
    if (got != (long long)size->valuedouble) {
        snprintf(why, len, "%s: size %lld, expected %lld", path, got,
                 (long long)size->valuedouble);
        return 1;
    }
    if (hash != want) {
        snprintf(why, len, "%s: contents changed (xxh3 %016llx, expected %s)", path,
                 (unsigned long long)hash, xxh3);
        return 1;
    }
    return 0;
}

int hls_manifest_check(const char *dir, char *why, size_t len)
{
    char path[4200];
    if (hls_path_join(path, sizeof path, dir, HLS_MANIFEST_FILE) != 0) {
        snprintf(why, len, "path too long");
        return 1;
    }
    errno = 0;
    char *text = hls_read_text(path);
    if (!text) {
        int oom = errno == ENOMEM;
        snprintf(why, len, oom ? "out of memory reading " HLS_MANIFEST_FILE
                               : HLS_MANIFEST_FILE ": %s",
                 errno == ENOENT ? "missing" : strerror(errno));
        return oom ? -1 : 1;
    }
    cJSON *m = cJSON_Parse(text);
    free(text);
    const cJSON *format = cJSON_GetObjectItemCaseSensitive(m, "format");
    const cJSON *files = cJSON_GetObjectItemCaseSensitive(m, "files"), *f;
    int rc = 1;
    if (!m)
        snprintf(why, len, HLS_MANIFEST_FILE ": not JSON");
    else if (!cJSON_IsNumber(format) || format->valuedouble != HLS_MANIFEST_FORMAT)
        snprintf(why, len, HLS_MANIFEST_FILE ": format %g, expected %d",
                 cJSON_IsNumber(format) ? format->valuedouble : 0.0, HLS_MANIFEST_FORMAT);
    else if (!cJSON_IsArray(files))
        snprintf(why, len, HLS_MANIFEST_FILE ": no file list");
    else
        rc = 0;
    if (rc == 0)
        cJSON_ArrayForEach(f, files)
            if ((rc = check_file(dir, f, why, len)) != 0)
                break;
    cJSON_Delete(m);
    return rc;
}

/* ---- entries: used, put in place, moved out of the way ---- */

/* 0 when entry is whole: its manifest checks and it has must_have; else as
 * hls_manifest_check. */
static int check_entry(const char *entry, const char *must_have, char *why, size_t len)
{
    int rc = hls_manifest_check(entry, why, len);
    char path[4200];
    if (rc == 0 &&
        (hls_path_join(path, sizeof path, entry, must_have) || access(path, R_OK))) {
        snprintf(why, len, "%s: missing", must_have);
        rc = 1;
    }
    return rc;
}

/* Moves a damaged entry out of the way: renamed to a scratch name beside it
 * (tmp-damaged-...), which `clhls cache clean` removes if this process does not get
 * to, then removed. A process still reading the old files keeps them. */
static void discard(const char *entry)
{
    char aside[4300];
    const char *slash = strrchr(entry, '/');
    int dir = slash ? (int)(slash - entry) : 1;
    snprintf(aside, sizeof aside, "%.*s/tmp-damaged-%s-XXXXXX", dir, slash ? entry : ".",
             slash ? slash + 1 : entry);
    /* A directory renamed onto an empty one replaces it: the name is ours alone. */
    if (!mkdtemp(aside)) {
        hls_remove_tree(entry);
        return;
    }
    if (rename(entry, aside) != 0)
        rmdir(aside);
    hls_remove_tree(aside);
}

int hls_entry_usable(const char *entry, const char *must_have, char *why, size_t len)
{
    *why = '\0';
    if (access(entry, F_OK) != 0)
        return 0;
    int rc = check_entry(entry, must_have, why, len);
    if (rc == 1)
        discard(entry);
    return rc == 0 ? 1 : rc == 1 ? 0 : -1;
}

int hls_entry_publish(const char *tmp, const char *entry, const char *must_have, char *why,
                      size_t len)
{
    for (int attempt = 0; attempt < 3; attempt++) {
        if (rename(tmp, entry) == 0)
            return 0;
        if (errno != ENOTEMPTY && errno != EEXIST) {
            snprintf(why, len, "cannot rename %s to %s: %s", tmp, entry, strerror(errno));
            break;
        }
        /* Another build was first: its entry, when whole, is as good as this one. */
        int rc = check_entry(entry, must_have, why, len);
        if (rc == 0) {
            hls_remove_tree(tmp);
            return 0;
        }
        if (rc < 0)
            break;
        discard(entry);
    }
    hls_remove_tree(tmp);
    return -1;
}
