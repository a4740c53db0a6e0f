/* libFuzzer harness of the program metadata loader (host-runtime/program.c,
 * rt_metadata_load, declared in rt.h): each input is written to a file and loaded as
 * a build's metadata.json, the only source of the register map, the argument layout
 * and the printf record layout the runtime trusts when it runs a kernel. A loaded
 * description is then checked against what kernel.c and device_sim.c assume (every
 * argument inside the argument area), and the printf records it describes are
 * formatted (rt_printf_output, to a stdout sent to /dev/null): one zeroed record of
 * each format. Any input may be rejected; none may crash, leak or reach undefined
 * behaviour. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "rt.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz_scratch_dir();
    if (!freopen("/dev/null", "w", stdout))
        abort();
    return 0;
}

/* Formats one zeroed record of each of m's formats (those that fit in 64 KiB). */
static void print_records(const rt_printf_meta *m)
{
    enum { BUFFER = 1 << 16 };
    unsigned char *buf = calloc(1, BUFFER);
    if (!buf)
        return;
    size_t at = 0;
    for (unsigned i = 0; i < m->nformats; i++) {
        size_t bytes = m->formats[i].bytes;
        if (bytes < 16 || bytes > BUFFER - at)
            break;
        unsigned id = i + 1;
        for (int b = 0; b < 4; b++)
            buf[at + (size_t)b] = (unsigned char)(id >> (8 * b));
        at += bytes;
    }
    const uint64_t global[3] = {1, 1, 1}, offset[3] = {0, 0, 0};
    rt_printf_output(m, "fuzz", buf, at, at, global, offset);
    free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rt_kernel_meta *ks = NULL;
    cl_uint n = 0;
    char err[512];
    if (rt_metadata_load(fuzz_write_file("metadata.json", data, size), &ks, &n, err,
                         sizeof err) != 0)
        return 0;
    for (cl_uint i = 0; i < n; i++) {
        const rt_kernel_meta *k = &ks[i];
        if (!k->name || !k->attributes || k->arg_area_bytes % 8)
            __builtin_trap();
        for (cl_uint a = 0; a < k->nargs; a++) {
            const rt_arg_meta *am = &k->args[a];
            size_t bytes = am->kind == RT_ARG_SCALAR ? am->size : 8;
            if (!am->name || !am->type_name || am->offset > k->arg_area_bytes ||
                bytes > k->arg_area_bytes - am->offset)
                __builtin_trap(); /* an argument outside the area the loader let by */
        }
        if (k->printf) {
            if (k->printf->arg_offset > k->arg_area_bytes ||
                k->arg_area_bytes - k->printf->arg_offset < 8)
                __builtin_trap(); /* the printf buffer's address outside the area */
            print_records(k->printf);
        }
    }
    rt_metadata_free(ks, n);
    return 0;
}
