/* The manifest of a build cache entry (common/manifest.c): manifest.json, written last
 * into the entry's scratch directory before it is renamed into place, lists every
 * file of the entry with its size and content hash, and every use of an entry checks
 * it first, so a truncated, altered or incomplete entry is never loaded. The compiler
 * (hls_build: KEY/ entries), the simulator bridge (build.c: Verilator's compiled
 * runtime) and the runtime (binfmt.c: the bin-HASH/ entries of program binaries)
 * share it through the base library clhls_common. */
#ifndef CLHLS_COMMON_MANIFEST_H
#define CLHLS_COMMON_MANIFEST_H

#include <stddef.h>

#define HLS_MANIFEST_FILE "manifest.json"
#define HLS_MANIFEST_FORMAT 1 /* the "format" a manifest must have to be read */

/* Writes dir/manifest.json for every regular file under dir (symbolic links and the
 * manifest itself excluded): path relative to dir, size, XXH3-64 of the contents.
 * 0 on success, -1 (errno set) when a file cannot be read or the manifest written. */
int hls_manifest_write(const char *dir);

/* Checks dir against its manifest: 0 when the manifest is of HLS_MANIFEST_FORMAT and
 * every file it lists is there with its size and hash (files written into the entry
 * later, such as last_run.json or synth/, are not its business); 1 when not, the
 * reason in why ("model.so: size 1234, expected 5678"); -1 when it could not be
 * checked (out of memory), why saying so. */
int hls_manifest_check(const char *dir, char *why, size_t len);

/* Whether the cache entry can be used: 1 when it is whole (its manifest checks and it
 * has the file must_have: a build's metadata.json); 0 when there is none, or when it was damaged: then it has been
 * moved aside and removed (a process still reading its files keeps them; a scratch
 * name, tmp-damaged-..., which `clhls cache clean` removes if this process does not
 * get to), and why says what was wrong; -1 when it could not be checked (why). */
int hls_entry_usable(const char *entry, const char *must_have, char *why, size_t len);

/* Puts the finished scratch directory tmp (its manifest written) in place as entry.
 * When another process was first, tmp is removed and its entry is used if whole (as
 * hls_entry_usable, with must_have); a
 * damaged one in the way is moved aside and the rename tried again. 0 when entry is
 * whole; -1 (tmp removed, the reason in why) when not. */
int hls_entry_publish(const char *tmp, const char *entry, const char *must_have, char *why,
                      size_t len);

#endif
