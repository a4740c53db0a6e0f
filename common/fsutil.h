/* File-system helpers of every layer (common/fsutil.c, in the base library
 * clhls_common; no LLVM): the build cache's root directory, mkdir -p, rm -rf and the
 * tool version, reading and writing a whole file (a JSON file parsed), joining paths. */
#ifndef CLHLS_COMMON_FSUTIL_H
#define CLHLS_COMMON_FSUTIL_H

#include <stddef.h>

/* The cache directory: override when given, else $CLHLS_CACHE_DIR, else
 * $XDG_CACHE_HOME/clhls, else ~/.cache/clhls; written into buf. */
const char *hls_cache_root(const char *override, char *buf, size_t len);
/* mkdir -p; 0 on success. */
int hls_mkdir_p(const char *path);
/* rm -rf. */
void hls_remove_tree(const char *path);
/* The whole file, NUL-terminated (for text) and its size in *len (len may be NULL), in
 * memory from the allocation hook (free it); NULL with errno set when it cannot be
 * read or is larger than max bytes (EFBIG; max 0: any size). */
char *hls_read_file(const char *path, size_t max, size_t *len);
/* hls_read_file of a text file of any size. */
char *hls_read_text(const char *path);
/* A JSON file parsed (cJSON_Delete it); NULL when it cannot be read or is not JSON. */
struct cJSON *hls_read_json(const char *path);
/* Writes text (and a newline when newline is set) to path, replacing it; 0 on success. */
int hls_write_text(const char *path, const char *text, int newline);
/* Replaces the file at path with text and a newline through a temporary file in the
 * same directory (.NAME.XXXXXX) renamed over it (mode 0644), so a reader sees the old
 * file or the whole new one; 0 on success, -1 with errno set. */
int hls_replace_text(const char *path, const char *text);
/* dir/name into buf; 0 on success, -1 (buf truncated) when it does not fit. */
int hls_path_join(char *buf, size_t len, const char *dir, const char *name);
/* 1 when p is a relative path that stays inside the directory it is relative to: at
 * most 1024 characters, no empty, "." or ".." component (a name from an untrusted
 * file: a manifest, an embedded header's include name). */
int hls_path_stays_inside(const char *p);

/* Version string that is part of every cache key. */
const char *hls_version(void);

#endif
