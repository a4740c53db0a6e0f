/* The names the emitter's parts agree on: a value as a region sees it at a stage
 * (r<N>_v<id>, r<N>_v<id>_d<delay> carried, r<N>_in_v<id> in a memory node, v<id> for
 * an invariant) or at a region's port, the work-item generator's token fields and the
 * NDRange registers; and tokens: a list of values declared as nets, packed into one bus
 * and unpacked from it, and the FIFOs that carry them. */
#include <stdio.h>

#include "emit.h"

/* Name of op's value as seen at `stage` of the current region. */
const char *hls_emit_ref(const emitter *e, char buf[40], const hls_op *op, int stage)
{
    if (hls_ir_is_invariant(op)) {
        snprintf(buf, 40, "v%d", op->id);
        return buf;
    }
    if (e->r->kind == HLS_REGION_MEMORY) { /* a memory node reads its input */
        snprintf(buf, 40, "r%d_in_v%d", e->r->id, op->id);
        return buf;
    }
    int delay = stage - home_stage(e, op);
    if (delay < 0)
        HLS_BUG("value %%%d read at stage %d before it exists (stage %d)", op->id, stage,
                home_stage(e, op));
    if (delay == 0)
        snprintf(buf, 40, "r%d_v%d", e->r->id, op->id);
    else
        snprintf(buf, 40, "r%d_v%d_d%d", e->r->id, op->id, delay);
    return buf;
}

/* The work-item generator's output for a token field ("wi_local_id_y", "wi_slot"). */
void hls_emit_token_wire(char *buf, size_t size, int field, int dim)
{
    static const char *const names[] = {"global_id", "local_id", "group_id", "group_size",
                                        "slot", "local_linear_id", "group_linear_size"};
    if (field >= HLS_TOK_SLOT)
        snprintf(buf, size, "wi_%s", names[field]);
    else
        snprintf(buf, size, "wi_%s_%c", names[field], "xyz"[dim]);
}

unsigned hls_emit_token_width(int field)
{
    return field == HLS_TOK_GLOBAL_ID ? 64 : field == HLS_TOK_SLOT ? HLS_SLOT_BITS : 32;
}

const char *hls_emit_ndrange_reg(int reg)
{
    static const char *const names[] = {"work_dim", "global_size", "local_size",
                                        "global_offset", "num_groups"};
    return names[reg];
}

unsigned hls_emit_ndrange_width(int reg)
{
    return reg == HLS_ND_GLOBAL_SIZE || reg == HLS_ND_GLOBAL_OFFSET ? 64 : 32;
}

/* Sorts a list of numbers and drops repeats; returns the new length. */
int hls_emit_sort_unique(int *v, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
            int t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
    int m = 0;
    for (int i = 0; i < n; i++)
        if (!m || v[m - 1] != v[i])
            v[m++] = v[i];
    return m;
}

/* Bits of a value that registers carry (tokens, result and delay registers): those
 * its readers use (narrow.c); the others are zeros, which no reader looks at. */
unsigned hls_emit_live_width(const hls_op *op)
{
    return op->live_bits && op->live_bits < op->width ? op->live_bits : op->width;
}

/* `x`, `bits` wide, as a value of `width` bits: zeros above it. */
const char *hls_emit_zero_extend(emitter *e, unsigned width, unsigned bits, const char *x)
{
    return bits < width ? text(e, "{%u'd0, %s}", width - bits, x) : x;
}

/* Bits of the token of a value list. */
unsigned hls_emit_token_bits(const hls_kernel *k, const int *ids, int n)
{
    unsigned bits = 0;
    for (int i = 0; i < n; i++)
        bits += hls_emit_live_width(&k->ops[ids[i]]);
    return bits ? bits : 1;
}

/* Declares nets PREFIX_v<id> for a list of values. */
void hls_emit_declare_token(emitter *e, const char *prefix, const int *ids, int n)
{
    for (int i = 0; i < n; i++)
        bus_net(e, e->k->ops[ids[i]].width, NULL, text(e, "%s_v%d", prefix, ids[i]));
}

/* The concatenation {PREFIX_v<a>, PREFIX_v<b>, ...} (or 1'b0 when empty), each value's
 * carried bits; `name` gives each value's net. */
const char *hls_emit_pack(emitter *e, const int *ids, int n,
                        const char *(*name)(emitter *, int, char *))
{
    char buf[64];
    if (!n)
        return "1'b0";
    strbuf x = {0};
    sb_append(&x, "{");
    for (int i = 0; i < n; i++) {
        const hls_op *op = &e->k->ops[ids[i]];
        sb_printf(&x, "%s%s", i ? ", " : "", name(e, ids[i], buf));
        if (hls_emit_live_width(op) < op->width)
            sb_printf(&x, "[%u:0]", hls_emit_live_width(op) - 1);
    }
    sb_append(&x, "}");
    const char *s = text(e, "%s", x.data);
    sb_free(&x);
    return s;
}

/* Assigns the fields of a packed token `data` to PREFIX_v<id> nets. */
void hls_emit_unpack(emitter *e, const char *prefix, const char *data, const int *ids, int n)
{
    unsigned hi = hls_emit_token_bits(e->k, ids, n);
    for (int i = 0; i < n; i++) {
        const hls_op *op = &e->k->ops[ids[i]];
        unsigned w = hls_emit_live_width(op);
        const char *net = text(e, "%s_v%d", prefix, ids[i]);
        hls_nl_assign(e->m, net, "%s",
                      hls_emit_zero_extend(e, op->width, w, text(e, "%s[%u:%u]", data, hi - 1, hi - w)));
        hi -= w;
    }
}

/* A clhls_fifo of `width` bits and `depth` entries. */
void hls_emit_fifo(emitter *e, const char *name, unsigned width, int depth, fifo_ports p)
{
    hls_nl_instance *f = instance(e, "clhls_fifo", name, 1);
    hls_nl_param(f, "WIDTH", "%u", width);
    hls_nl_param(f, "DEPTH", "%d", depth);
    hls_nl_connect(f, HLS_NL_IN, "s_valid", "%s", p.s_valid);
    hls_nl_connect(f, HLS_NL_OUT, "s_ready", "%s", p.s_ready ? p.s_ready : "");
    hls_nl_connect(f, HLS_NL_IN, "s_data", "%s", p.s_data);
    hls_nl_connect(f, HLS_NL_OUT, "m_valid", "%s", p.m_valid ? p.m_valid : "");
    hls_nl_connect(f, HLS_NL_IN, "m_ready", "%s", p.m_ready);
    hls_nl_connect(f, HLS_NL_OUT, "m_data", "%s", p.m_data);
    hls_nl_connect(f, HLS_NL_OUT, "count", "%s", p.count ? p.count : "");
}

/* Region `region`'s port for value id: "r<N>_in_v<id>", or the invariant's wire. */
const char *hls_emit_port_value(const hls_kernel *k, char *buf, int region, const char *side,
                                int id)
{
    if (hls_ir_is_invariant(&k->ops[id]))
        sprintf(buf, "v%d", id);
    else
        sprintf(buf, "r%d_%s_v%d", region, side, id);
    return buf;
}
