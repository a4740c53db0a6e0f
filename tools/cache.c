/* `clhls cache`: the build cache seen from the command line. The cache root
 * (hls_cache_root: $CLHLS_CACHE_DIR, else $XDG_CACHE_HOME/clhls, else ~/.cache/clhls)
 * holds
 *   <32 hex digits>/        the entry of a build (hls/hls.c), named by its key
 *   bin-<32 hex digits>/    a program binary unpacked by the runtime (binfmt.c)
 *   inc-<32 hex digits>     the headers the last build of a key read, one path a
 *                           line: the entry is the one of their contents (hls/hls.c)
 *   tmp-...                 scratch directories of builds running (or interrupted)
 *   verilated-runtime/HASH/ Verilator's runtime and precompiled headers, compiled once per
 *                           Verilator and compiler
 * Entries are made in a scratch directory and renamed into place when whole. `list`
 * shows each entry's kernels and board (its metadata.json), size and last use (the
 * newest access or change time of its files: the runtime and `clhls build` read
 * metadata.json on every use, and most systems update the access time of a file at
 * least once a day; listing does not count as a use). `clean` removes only entries (a
 * list of headers goes as an entry does, unlisted and uncounted: it is part of the
 * entries of its key) and scratch directories nobody has written to for a day, never
 * anything else: an entry
 * is first renamed to a scratch name, so no build ever sees half an entry, and the
 * scratch directories of running builds are left alone. */
#define _XOPEN_SOURCE 700 /* nftw */
#include "cache.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "fsutil.h"

/* A scratch directory untouched this long was left by an interrupted build. */
#define SCRATCH_STALE_SECONDS (24.0 * 3600)

static const char usage_cache[] =
    "usage: clhls cache [list]\n"
    "       clhls cache size [--bytes]\n"
    "       clhls cache clean [--all | --older-than DAYS] [--dry-run]\n"
    "The build cache ($CLHLS_CACHE_DIR, else $XDG_CACHE_HOME/clhls, else ~/.cache/clhls).\n"
    "  list                 each entry: its kernels, board, size and last use\n"
    "  size                 the cache's total size\n"
    "    --bytes            in bytes, the number alone\n"
    "  clean                remove what interrupted builds left (scratch directories\n"
    "                       nobody has written to for a day)\n"
    "    --older-than DAYS  and the entries not used for DAYS days (decimals allowed)\n"
    "    --all              and every entry\n"
    "    -n, --dry-run      print what would be removed, remove nothing\n"
    "  -h, --help           this text\n"
    "Only the cache's entries and scratch directories are ever removed; builds running\n"
    "meanwhile are not disturbed.\n";

/* One directory of the cache root that clean may remove. */
typedef struct cache_item {
    char *name;                 /* its name in the root */
    int scratch;                /* 1: a scratch directory; 0: an entry */
    int headers;                /* 1: a list of headers (inc-KEY, a file) */
    double bytes;               /* the size of its files */
    time_t last_use;            /* entry: last use; scratch: newest change in it */
    char *board;                /* entry: its board ("?" when unknown) */
    char *kernels;              /* entry: its kernels, comma-separated */
    int model;                  /* entry: 1 when it has model.so */
} cache_item;

/* What the root holds. */
typedef struct cache_scan {
    char root[4096];            /* the cache root */
    cache_item *items;          /* entries and scratch directories */
    size_t n;                   /* how many */
    double other_bytes;         /* everything else (the Verilator runtime, ...) */
} cache_scan;

/* 1 when name is n lower-case hexadecimal digits. */
static int hex_name(const char *name, size_t n)
{
    if (strlen(name) != n)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!((name[i] >= '0' && name[i] <= '9') || (name[i] >= 'a' && name[i] <= 'f')))
            return 0;
    return 1;
}

/* 1 when name is an entry's: a build key, or bin- and a binary's hash. */
static int entry_name(const char *name)
{
    return hex_name(name, 32) || (!strncmp(name, "bin-", 4) && hex_name(name + 4, 32));
}

/* The walk's sums (nftw has no user argument). */
static double walk_bytes;
static time_t walk_newest;

static int add_to_walk(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)path;
    (void)ftw;
    if (flag == FTW_F)
        walk_bytes += (double)st->st_size;
    if (flag != FTW_NS && st->st_mtime > walk_newest)
        walk_newest = st->st_mtime;
    return 0;
}

/* The size of the files under path and the newest change time in it. */
static double tree_size(const char *path, time_t *newest)
{
    walk_bytes = 0;
    walk_newest = 0;
    nftw(path, add_to_walk, 16, FTW_PHYS);
    if (newest)
        *newest = walk_newest;
    return walk_bytes;
}

/* The last use of an entry: the newest access time of its files, or change time of
 * its files and directories. */
static time_t last_use(const char *dir)
{
    struct stat st;
    time_t t = stat(dir, &st) == 0 ? st.st_mtime : 0;
    DIR *d = opendir(dir);
    struct dirent *de;
    while (d && (de = readdir(d))) {
        char path[8300];
        if (de->d_name[0] == '.' || hls_path_join(path, sizeof path, dir, de->d_name) ||
            lstat(path, &st) != 0)
            continue;
        if (S_ISREG(st.st_mode) && st.st_atime > t) /* reading a directory is no use */
            t = st.st_atime;
        if (st.st_mtime > t)
            t = st.st_mtime;
    }
    if (d)
        closedir(d);
    return t;
}

/* Reads a file without making that a use: its access time is put back. */
static char *read_quietly(const char *path)
{
    struct stat before;
    if (stat(path, &before) != 0)
        return NULL;
    char *text = hls_read_text(path);
    struct timespec times[2] = {before.st_atim, {.tv_nsec = UTIME_OMIT}};
    utimensat(AT_FDCWD, path, times, 0);
    return text;
}

/* The board and kernel names of an entry's metadata.json. */
static void read_metadata(const char *dir, cache_item *it)
{
    char path[8300];
    char *text = hls_path_join(path, sizeof path, dir, "metadata.json") ? NULL : read_quietly(path);
    cJSON *m = text ? cJSON_Parse(text) : NULL;
    free(text);
    const cJSON *board = cJSON_GetObjectItemCaseSensitive(m, "board");
    it->board = strdup(cJSON_IsString(board) ? board->valuestring : "?");
    size_t len = 0;
    const cJSON *k;
    cJSON_ArrayForEach(k, cJSON_GetObjectItemCaseSensitive(m, "kernels"))
    {
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(k, "name");
        if (cJSON_IsString(name))
            len += strlen(name->valuestring) + 2;
    }
    it->kernels = calloc(1, len + 2);
    cJSON_ArrayForEach(k, cJSON_GetObjectItemCaseSensitive(m, "kernels"))
    {
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(k, "name");
        if (cJSON_IsString(name) && it->kernels) {
            if (*it->kernels)
                strcat(it->kernels, ", ");
            strcat(it->kernels, name->valuestring);
        }
    }
    if (!m && it->kernels) {
        free(it->kernels);
        it->kernels = strdup("? (no readable metadata.json)");
    }
    cJSON_Delete(m);
    it->model = !hls_path_join(path, sizeof path, dir, "model.so") && access(path, F_OK) == 0;
}

/* Newest use first. */
static int by_last_use(const void *a, const void *b)
{
    const cache_item *x = a, *y = b;
    return (x->last_use < y->last_use) - (x->last_use > y->last_use);
}

/* Looks at every directory of the root; 0, or -1 when the root cannot be read (a root
 * that does not exist is an empty cache). */
static int scan(cache_scan *c)
{
    memset(c, 0, sizeof *c);
    hls_cache_root(NULL, c->root, sizeof c->root);
    DIR *d = opendir(c->root);
    if (!d)
        return errno == ENOENT ? 0 : -1;
    size_t cap = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        char path[8300];
        struct stat st;
        if (hls_path_join(path, sizeof path, c->root, de->d_name) || lstat(path, &st) != 0)
            continue;
        int entry = S_ISDIR(st.st_mode) && entry_name(de->d_name);
        int scratch = S_ISDIR(st.st_mode) && !strncmp(de->d_name, "tmp-", 4);
        int headers = S_ISREG(st.st_mode) && !strncmp(de->d_name, "inc-", 4) &&
                      hex_name(de->d_name + 4, 32);
        if (!entry && !scratch && !headers) {
            c->other_bytes += S_ISDIR(st.st_mode) ? tree_size(path, NULL)
                              : S_ISREG(st.st_mode) ? (double)st.st_size
                                                    : 0;
            continue;
        }
        if (c->n == cap) {
            cap = cap ? 2 * cap : 16;
            cache_item *items = realloc(c->items, cap * sizeof *items);
            if (!items)
                break;
            c->items = items;
        }
        cache_item *it = &c->items[c->n++];
        memset(it, 0, sizeof *it);
        it->name = strdup(de->d_name);
        it->scratch = scratch;
        it->headers = headers;
        time_t newest;
        it->bytes = tree_size(path, &newest);
        if (headers) {
            it->last_use = st.st_atime > st.st_mtime ? st.st_atime : st.st_mtime;
            it->board = strdup("");
            it->kernels = strdup("");
        } else if (scratch) {
            it->last_use = newest;
        } else {
            it->last_use = last_use(path);
            read_metadata(path, it);
        }
    }
    closedir(d);
    qsort(c->items, c->n, sizeof *c->items, by_last_use);
    return 0;
}

static void scan_free(cache_scan *c)
{
    for (size_t i = 0; i < c->n; i++) {
        free(c->items[i].name);
        free(c->items[i].board);
        free(c->items[i].kernels);
    }
    free(c->items);
}

/* bytes as "123 B", "4.5 KiB", "6.7 MiB", "1.2 GiB". */
static const char *human(double bytes, char buf[32])
{
    const char *unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (bytes >= 1024 && u < 4) {
        bytes /= 1024;
        u++;
    }
    snprintf(buf, 32, u ? "%.1f %s" : "%.0f %s", bytes, unit[u]);
    return buf;
}

static const char *local_time(time_t t, char buf[32])
{
    struct tm tm;
    if (!localtime_r(&t, &tm) || !strftime(buf, 32, "%Y-%m-%d %H:%M", &tm))
        snprintf(buf, 32, "?");
    return buf;
}

static int cache_list(const cache_scan *c)
{
    size_t entries = 0, scratch = 0;
    double entry_bytes = 0, scratch_bytes = 0;
    for (size_t i = 0; i < c->n; i++) {
        const cache_item *it = &c->items[i];
        if (it->headers)
            continue;
        if (it->scratch) {
            scratch++;
            scratch_bytes += it->bytes;
            continue;
        }
        char size[32], when[32];
        if (!entries++)
            printf("%-36s  %-12s  %9s  %-16s  %s\n", "ENTRY", "BOARD", "SIZE", "LAST USE",
                   "KERNELS");
        printf("%-36s  %-12s  %9s  %-16s  %s%s\n", it->name, it->board,
               human(it->bytes, size), local_time(it->last_use, when),
               *it->kernels ? it->kernels : "(none)", it->model ? "" : " (no model)");
        entry_bytes += it->bytes;
    }
    char size[32];
    if (entries)
        printf("%zu %s, %s in %s\n", entries, entries == 1 ? "entry" : "entries",
               human(entry_bytes, size), c->root);
    else
        printf("no entries in %s\n", c->root);
    if (scratch)
        printf("%zu scratch %s of builds running or interrupted, %s\n", scratch,
               scratch == 1 ? "directory" : "directories", human(scratch_bytes, size));
    return CLI_EXIT_OK;
}

static int cache_size(const cache_scan *c, int bytes_only)
{
    double entries = 0, total = c->other_bytes;
    size_t n = 0;
    for (size_t i = 0; i < c->n; i++) {
        total += c->items[i].bytes;
        if (!c->items[i].scratch && !c->items[i].headers) {
            entries += c->items[i].bytes;
            n++;
        }
    }
    char a[32], b[32];
    if (bytes_only)
        printf("%.0f\n", total);
    else
        printf("%s in %s (%zu %s: %s)\n", human(total, a), c->root, n,
               n == 1 ? "entry" : "entries", human(entries, b));
    return CLI_EXIT_OK;
}

/* Removes one directory of the root; an entry is first renamed to a scratch name, so
 * that no build finds half of it. 0; 1 when someone else removed it first; -1. */
static int remove_item(const char *root, const cache_item *it)
{
    char path[8300], away[8300];
    if (hls_path_join(path, sizeof path, root, it->name))
        return -1;
    if (it->headers) /* a build reading it meanwhile misses, nothing more */
        return unlink(path) == 0 ? 0 : errno == ENOENT ? 1 : -1;
    if (!it->scratch) {
        if (hls_path_join(away, sizeof away, root, "tmp-clean-XXXXXX") || !mkdtemp(away))
            return -1;
        if (rename(path, away) != 0) { /* onto the empty directory just made */
            int gone = errno == ENOENT;
            rmdir(away);
            return gone ? 1 : -1;
        }
        memcpy(path, away, sizeof path);
    }
    hls_remove_tree(path);
    return access(path, F_OK) == 0 ? -1 : 0;
}

static int cache_clean(const cache_scan *c, int all, double older_days, int dry_run)
{
    time_t now = time(NULL);
    size_t entries = 0, scratch = 0;
    double bytes = 0;
    int failed = 0;
    for (size_t i = 0; i < c->n; i++) {
        const cache_item *it = &c->items[i];
        double idle = difftime(now, it->last_use);
        int stale = it->scratch ? idle > SCRATCH_STALE_SECONDS
                                : all || (older_days >= 0 && idle > older_days * 86400);
        if (!stale || (it->headers && dry_run))
            continue;
        if (it->headers) {
            if (remove_item(c->root, it) < 0) {
                fprintf(stderr, "clhls: cannot remove %s/%s: %s\n", c->root, it->name,
                        strerror(errno));
                failed = 1;
            }
            continue;
        }
        char size[32];
        if (dry_run) {
            printf("would remove %s (%s%s%s)\n", it->name,
                   it->scratch ? "left by an interrupted build" : it->kernels,
                   it->scratch ? "" : ", ", it->scratch ? "" : human(it->bytes, size));
        } else {
            int rc = remove_item(c->root, it);
            if (rc < 0) {
                fprintf(stderr, "clhls: cannot remove %s/%s: %s\n", c->root, it->name,
                        strerror(errno));
                failed = 1;
                continue;
            }
            if (rc > 0)
                continue;
        }
        bytes += it->bytes;
        if (it->scratch)
            scratch++;
        else
            entries++;
    }
    char size[32];
    printf("%s %zu %s and %zu scratch %s, %s, from %s\n", dry_run ? "would remove" : "removed",
           entries, entries == 1 ? "entry" : "entries", scratch,
           scratch == 1 ? "directory" : "directories", human(bytes, size), c->root);
    return failed ? CLI_EXIT_INTERNAL : CLI_EXIT_OK;
}

int clhls_cache_main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "list";
    int help = 0, bad = 0, bytes_only = 0, all = 0, dry_run = 0;
    double older_days = -1;
    if (!strcmp(what, "--help") || !strcmp(what, "-h"))
        help = 1;
    else if (strcmp(what, "list") && strcmp(what, "size") && strcmp(what, "clean"))
        bad = 1;
    for (int i = 2; i < argc && !help && !bad; i++) {
        const char *a = argv[i];
        char *end;
        if (!strcmp(a, "--help") || !strcmp(a, "-h"))
            help = 1;
        else if (!strcmp(what, "size") && !strcmp(a, "--bytes"))
            bytes_only = 1;
        else if (!strcmp(what, "clean") && !strcmp(a, "--all"))
            all = 1;
        else if (!strcmp(what, "clean") && (!strcmp(a, "--dry-run") || !strcmp(a, "-n")))
            dry_run = 1;
        else if (!strcmp(what, "clean") && !strcmp(a, "--older-than") && i + 1 < argc) {
            older_days = strtod(argv[++i], &end);
            if (end == argv[i] || *end || older_days < 0) {
                fprintf(stderr, "clhls: --older-than %s: not a number of days\n", argv[i]);
                return CLI_EXIT_USER;
            }
        } else
            bad = 1;
    }
    if (all && older_days >= 0)
        bad = 1;
    if (help || bad) {
        fputs(usage_cache, help ? stdout : stderr);
        return help ? CLI_EXIT_OK : CLI_EXIT_USER;
    }
    cache_scan c;
    if (scan(&c) != 0) {
        fprintf(stderr, "clhls: cannot read the cache %s: %s\n", c.root, strerror(errno));
        return CLI_EXIT_INTERNAL;
    }
    int rc = !strcmp(what, "size")    ? cache_size(&c, bytes_only)
             : !strcmp(what, "clean") ? cache_clean(&c, all, older_days, dry_run)
                                      : cache_list(&c);
    scan_free(&c);
    return rc;
}
