/* File-system helpers shared by the compiler and the runtime (common/fsutil.h): the build
 * cache's root, mkdir -p, rm -rf, whole-file reads (through the allocation hook,
 * alloc.h) and writes, and the tool version. Nothing here needs LLVM, so the
 * ICD links this library and never the compiler. */
#define _XOPEN_SOURCE 700 /* nftw */
#include <cjson/cJSON.h>
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc.h"
#include "fsutil.h"

#ifndef CLHLS_VERSION
#define CLHLS_VERSION "0.1.0"
#endif

const char *hls_version(void)
{
    return CLHLS_VERSION;
}

int hls_mkdir_p(const char *path)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(buf, 0755) && errno != EEXIST)
            return -1;
        *p = '/';
    }
    return mkdir(buf, 0755) && errno != EEXIST ? -1 : 0;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    return remove(path);
}

void hls_remove_tree(const char *path)
{
    nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

char *hls_read_file(const char *path, size_t max, size_t *len)
{
    if (len)
        *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *s = NULL;
    long n = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    if (n >= 0 && max && (size_t)n > max)
        errno = EFBIG;
    else if (n >= 0 && fseek(f, 0, SEEK_SET) == 0 && (s = hls_try_alloc((size_t)n + 1))) {
        errno = 0;
        if (fread(s, 1, (size_t)n, f) == (size_t)n) {
            s[n] = '\0';
            if (len)
                *len = (size_t)n;
        } else {
            free(s);
            s = NULL;
            if (!errno)
                errno = EIO; /* shorter than it was */
        }
    }
    int saved = errno; /* why s is NULL */
    fclose(f);
    errno = saved;
    return s;
}

char *hls_read_text(const char *path)
{
    return hls_read_file(path, 0, NULL);
}

cJSON *hls_read_json(const char *path)
{
    char *text = hls_read_text(path);
    cJSON *j = text ? cJSON_Parse(text) : NULL;
    free(text);
    return j;
}

int hls_write_text(const char *path, const char *text, int newline)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    int bad = fputs(text, f) < 0 || (newline && fputc('\n', f) < 0);
    return fclose(f) != 0 || bad ? -1 : 0;
}

int hls_replace_text(const char *path, const char *text)
{
    /* dir/.base.XXXXXX: hidden, so nothing that lists the directory takes it */
    char tmp[4200];
    const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
    int n = snprintf(tmp, sizeof tmp, "%.*s.%s.XXXXXX", (int)(base - path), path, base);
    if (n < 0 || (size_t)n >= sizeof tmp) {
        errno = ENAMETOOLONG;
        return -1;
    }
    int fd = mkstemp(tmp);
    if (fd < 0)
        return -1;
    int bad = fchmod(fd, 0644) != 0; /* mkstemp's 0600 would hide it from other readers */
    close(fd);
    if (bad || hls_write_text(tmp, text, 1) != 0 || rename(tmp, path) != 0) {
        int saved = errno;
        unlink(tmp);
        errno = saved;
        return -1;
    }
    return 0;
}

int hls_path_join(char *buf, size_t len, const char *dir, const char *name)
{
    int n = snprintf(buf, len, "%s/%s", dir, name);
    return n >= 0 && (size_t)n < len ? 0 : -1;
}

int hls_path_stays_inside(const char *p)
{
    if (!*p || *p == '/' || strlen(p) > 1024)
        return 0;
    for (const char *part = p; part;) {
        const char *end = strchr(part, '/');
        size_t n = end ? (size_t)(end - part) : strlen(part);
        if (n == 0 || (n == 1 && part[0] == '.') || (n == 2 && !strncmp(part, "..", 2)))
            return 0;
        part = end ? end + 1 : NULL;
    }
    return 1;
}

const char *hls_cache_root(const char *override, char *buf, size_t len)
{
    const char *env = getenv("CLHLS_CACHE_DIR"), *xdg = getenv("XDG_CACHE_HOME");
    if (override && *override)
        snprintf(buf, len, "%s", override);
    else if (env && *env)
        snprintf(buf, len, "%s", env);
    else if (xdg && *xdg)
        snprintf(buf, len, "%s/clhls", xdg);
    else
        snprintf(buf, len, "%s/.cache/clhls", getenv("HOME") ? getenv("HOME") : "/tmp");
    return buf;
}
