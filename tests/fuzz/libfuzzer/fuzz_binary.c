/* libFuzzer harness of program binaries (host-runtime/binfmt.c through the runtime's
 * wrappers in binary.c): what clCreateProgramWithBinary and a build from a binary do
 * with a blob, short of loading its model. Each input is checked whole
 * (rt_binary_check, for any board and for sim_dc); a blob that passes has its bitcode
 * taken out (a compiled object or a library) or is unpacked into a scratch build
 * cache and its metadata.json loaded (an executable), then the unpacked entry is
 * removed. As a mutated input rarely keeps its content hash right, each input is also
 * tried with the hash recomputed over its bytes, so that mutations reach the file
 * table, the unpacking and the metadata. Any input may be rejected; none may crash,
 * leak, reach undefined behaviour or write outside the cache. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "binfmt.h"
#include "fsutil.h"
#include "fuzz_common.h"
#include "rt.h"

#define HEADER 128u  /* the header's size (binfmt.c) */
#define OFF_HASH 104 /* the content hash's offset in it */

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    char cache[4200];
    snprintf(cache, sizeof cache, "%s/cache", fuzz_scratch_dir());
    setenv("CLHLS_CACHE_DIR", cache, 1);
    return 0;
}

/* Writes the content hash of blob into its hash field, as binfmt.c computes it. */
static void fix_hash(unsigned char *blob, size_t len)
{
    memset(blob + OFF_HASH, 0, 16);
    XXH128_canonical_t c;
    XXH128_canonicalFromHash(&c, XXH3_128bits(blob, len));
    memcpy(blob + OFF_HASH, c.digest, 16);
}

/* What the runtime does with a blob. */
static void try_blob(const unsigned char *blob, size_t len)
{
    char err[512];
    cl_program_binary_type type = 0;
    if (rt_binary_check(blob, len, NULL, &type, err, sizeof err) != 0)
        return;
    rt_binary_check(blob, len, "sim_dc", NULL, err, sizeof err); /* the device's board */
    if (type != CL_PROGRAM_BINARY_TYPE_EXECUTABLE) {
        size_t n = 0;
        unsigned char *bc = rt_binary_object(blob, len, &n);
        if (!bc)
            __builtin_trap(); /* a checked object without its bitcode */
        rt_free(bc);
        return;
    }
    char *entry = rt_binary_unpack(blob, len, err, sizeof err);
    if (!entry)
        return;
    char path[4300];
    snprintf(path, sizeof path, "%s/metadata.json", entry);
    rt_kernel_meta *ks = NULL;
    cl_uint nk = 0;
    if (rt_metadata_load(path, &ks, &nk, err, sizeof err) == 0)
        rt_metadata_free(ks, nk);
    hls_remove_tree(entry);
    rt_free(entry);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* A copy of exactly size bytes: a read past the blob's end is AddressSanitizer's. */
    unsigned char *blob = malloc(size ? size : 1);
    if (!blob)
        return 0;
    memcpy(blob, data, size);
    try_blob(blob, size);
    if (size >= HEADER) {
        unsigned char saved[16];
        memcpy(saved, blob + OFF_HASH, 16);
        fix_hash(blob, size);
        if (memcmp(saved, blob + OFF_HASH, 16) != 0)
            try_blob(blob, size);
    }
    free(blob);
    return 0;
}
