/* Program binaries in the runtime: CL_PROGRAM_BINARIES hands out a build's cache entry
 * (or a compiled object's bitcode) packed into one blob, clCreateProgramWithBinary
 * checks a blob whole, and building such a program unpacks it into the build cache and
 * loads it; nothing is compiled. The format itself (layout, checks, unpacking) lives
 * in binfmt.c, the small library that `clhls build -o` writes binaries with too; these
 * functions give it the runtime's allocation hook, so injected out-of-memory reaches
 * it. */
#include "binfmt.h"
#include "rt.h"

_Static_assert(BINFMT_EXECUTABLE == CL_PROGRAM_BINARY_TYPE_EXECUTABLE &&
                   BINFMT_COMPILED_OBJECT == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT &&
                   BINFMT_LIBRARY == CL_PROGRAM_BINARY_TYPE_LIBRARY,
               "binary types are OpenCL's");

static const binfmt_alloc runtime_memory = {rt_alloc, rt_realloc, rt_free};

int rt_binary_pack(const char *entry_dir, const char *board, unsigned char **out,
                   size_t *out_len, char *err, size_t errlen)
{
    return binfmt_pack_entry(&runtime_memory, entry_dir, board, out, out_len, err, errlen);
}

int rt_binary_pack_object(const unsigned char *bitcode, size_t len, const char *board,
                          cl_program_binary_type type, unsigned char **out, size_t *out_len,
                          char *err, size_t errlen)
{
    return binfmt_pack_object(&runtime_memory, bitcode, len, board, (unsigned)type, out,
                              out_len, err, errlen);
}

int rt_binary_check(const unsigned char *blob, size_t len, const char *board,
                    cl_program_binary_type *type_out, char *err, size_t errlen)
{
    unsigned type = 0;
    int rc = binfmt_check(blob, len, board, &type, err, errlen);
    if (rc == 0 && type_out)
        *type_out = (cl_program_binary_type)type;
    return rc;
}

char *rt_binary_unpack(const unsigned char *blob, size_t len, char *err, size_t errlen)
{
    return binfmt_unpack(&runtime_memory, blob, len, err, errlen);
}

unsigned char *rt_binary_object(const unsigned char *blob, size_t len, size_t *out_len)
{
    return binfmt_object(&runtime_memory, blob, len, out_len);
}
