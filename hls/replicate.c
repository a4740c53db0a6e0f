/* Compute units of a kernel: Intel's __attribute__((num_compute_units(N))) (pragmas.c
 * remembers it) and the build option -clhls-compute-units=KERNEL:N (Vitis's `nk`),
 * which wins over the attribute. A kernel of N compute units gets N copies of its
 * compute unit side by side, each with its own load-store units on the memory
 * interconnect, sharing one control block; their dispatchers deal the work-groups out
 * in turn (emit_verilog.c, clhls_cu_shell). Every kernel has at least one. A copy has
 * no identity a kernel could ask for (Intel's get_compute_id), so channels, which have
 * one writer and one reader, and autorun kernels, which have no work-groups to share,
 * keep one: asking for more is a build error, as is a count out of 1..16 or an option
 * naming no kernel. Without either, a kernel has the board's compute units per kernel
 * (board-format.md's compute_units, 1 on every board we ship). */
#include <stdlib.h>
#include <string.h>

#include "passes.h"

/* The count -clhls-compute-units gives kernel `name` (the last option naming it), or 0. */
static int option_count(const hls_compile *c, const char *name, int *used)
{
    int count = 0;
    for (int i = 0; i < c->opts.nreplicate; i++) {
        const char *opt = c->opts.replicate[i], *colon = strrchr(opt, ':');
        if ((size_t)(colon - opt) == strlen(name) && !strncmp(opt, name, (size_t)(colon - opt))) {
            count = atoi(colon + 1);
            used[i] = 1;
        }
    }
    return count;
}

/* 1 when kernel k reads or writes a channel or a pipe. */
static int uses_channels(const hls_kernel *k)
{
    for (int i = 0; i < k->nops; i++)
        if (k->ops[i].opc == HOP_CHAN_READ || k->ops[i].opc == HOP_CHAN_WRITE)
            return 1;
    return 0;
}

int hls_replicate(hls_compile *c)
{
    hls_program *p = c->program;
    int before = c->diag.errors;
    int *used = arena_alloc(&c->arena, (size_t)(c->opts.nreplicate + 1) * sizeof *used);
    for (int i = 0; i < p->nkernels; i++) {
        hls_kernel *k = p->kernels[i];
        const hls_vendor_attr *a =
            hls_vendor_attribute(c, HLS_ATTR_NUM_COMPUTE_UNITS, k->name, NULL);
        hls_loc loc = a ? a->loc : k->loc;
        int alone = k->autorun || uses_channels(k); /* has one compute unit */
        int asked = option_count(c, k->name, used);
        const char *how = "-clhls-compute-units";
        if (!asked && a) {
            how = "num_compute_units";
            asked = a->value;
            if (asked < 1 || asked > HLS_MAX_COMPUTE_UNITS) {
                hls_error(&c->diag, loc, "num_compute_units takes one number from 1 to %d",
                          HLS_MAX_COMPUTE_UNITS);
                asked = 1;
            }
        }
        /* without either, the board's compute units per kernel where a kernel can have them */
        unsigned board = p->board->compute_units;
        k->compute_units = asked ? asked
                           : !alone && board > 1 && board <= HLS_MAX_COMPUTE_UNITS ? (int)board
                                                                                   : 1;
        if (k->compute_units == 1 || !alone)
            continue;
        if (k->autorun)
            hls_error(&c->diag, loc, "autorun kernel '%s' has one compute unit: it runs one "
                      "work-item for ever, so there are no work-groups to share (%s asks for %d)",
                      k->name, how, k->compute_units);
        else
            hls_error(&c->diag, loc, "kernel '%s' uses channels or pipes, so it has one compute "
                      "unit: a channel joins one writer to one reader (%s asks for %d)",
                      k->name, how, k->compute_units);
    }
    hls_loc none = {0};
    for (int i = 0; i < c->opts.nreplicate; i++)
        if (!used[i])
            hls_error(&c->diag, none, "-clhls-compute-units=%s: the program has no kernel of "
                      "that name", c->opts.replicate[i]);
    return c->diag.errors > before ? HLS_ERR_UNSUPPORTED : HLS_OK;
}
