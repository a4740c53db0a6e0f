/* The program binary format: a build's cache entry (metadata.json, model.so, the
 * generated Verilog, the build log, the compiler's inputs) or a compiled object's
 * bitcode packed into one checked blob. The ICD (CL_PROGRAM_BINARIES,
 * clCreateProgramWithBinary, host-runtime/binary.c) and the `clhls build -o` command
 * both use this small static library, clhls_binfmt, which links neither the compiler
 * nor OpenCL. The layout is described at the top of binfmt.c. */
#ifndef CLHLS_BINFMT_H
#define CLHLS_BINFMT_H

#include <stddef.h>

/* Binary types: the values of CL_PROGRAM_BINARY_TYPE_*. */
enum {
    BINFMT_COMPILED_OBJECT = 1, /* one file, program.bc */
    BINFMT_LIBRARY = 2,         /* one file, program.bc */
    BINFMT_EXECUTABLE = 4,      /* a cache entry: metadata.json, model.so, ... */
};

/* The caller's allocation functions (the runtime's allocation hook), so that a test's
 * injected out-of-memory reaches this code too. NULL everywhere means calloc, realloc
 * and free. */
typedef struct binfmt_alloc {
    void *(*alloc)(size_t size);            /* zeroed memory, or NULL */
    void *(*realloc)(void *p, size_t size); /* as realloc, or NULL */
    void (*free)(void *p);                  /* releases what the two return */
} binfmt_alloc;

/* Packs every regular file under entry_dir as an executable for board into a new blob
 * (*out, *out_len; released with a->free), when the entry's manifest checks. 0, or -1
 * and a message in err. */
int binfmt_pack_entry(const binfmt_alloc *a, const char *entry_dir, const char *board,
                      unsigned char **out, size_t *out_len, char *err, size_t errlen);
/* Packs LLVM bitcode as a compiled object or a library (type) for board. */
int binfmt_pack_object(const binfmt_alloc *a, const unsigned char *bitcode, size_t len,
                       const char *board, unsigned type, unsigned char **out,
                       size_t *out_len, char *err, size_t errlen);

/* 0 when blob is a whole, uncorrupted program binary for board (any board when NULL),
 * its type in *type when not NULL; else -1 and a message in err. */
int binfmt_check(const unsigned char *blob, size_t len, const char *board, unsigned *type,
                 char *err, size_t errlen);

/* Unpacks a checked executable blob into the build cache (<cache>/bin-<hash>, written
 * in a scratch directory with its manifest and renamed into place; an earlier
 * unpacking is reused when its manifest checks) and returns the entry's directory
 * (released with a->free), with err empty, or saying why an earlier unpacking was
 * damaged and replaced; or NULL and a message in err. */
char *binfmt_unpack(const binfmt_alloc *a, const unsigned char *blob, size_t len, char *err,
                    size_t errlen);

/* The bitcode of a checked object or library blob (released with a->free), its size
 * in *out_len; NULL when out of memory or when there is none. */
unsigned char *binfmt_object(const binfmt_alloc *a, const unsigned char *blob, size_t len,
                             size_t *out_len);

#endif
