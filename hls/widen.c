/* Wide accesses: neighbouring __global and __constant accesses of one block become one
 * access as wide as the memory port allows, so one load-store unit makes one memory
 * request for them instead of several units each requesting the same line. LLVM's
 * load-store vectorizer (prepare.c's coalesce step) already merges consecutive
 * elements, but at most 128 bits without a target: the 16 loads of a[i] ... a[i + 15]
 * that `#pragma unroll 16` makes reach here as four 128-bit loads, which this pass
 * makes one 512-bit load.
 *
 * Loads (or stores) of one width in one block are merged when their addresses are one
 * address plus constants that put them side by side (the exact forms of linform.c,
 * extended through a zero or sign extension of `x | c` with c below x's known low zero
 * bits, which is how LLVM writes an unrolled index), their number is a power of two,
 * they span at most one port word, and the lowest address is a multiple of that span,
 * so the wide access never straddles two memory lines: the load-store units take
 * naturally aligned words only. Alignment comes from the buffer arguments (every
 * buffer starts at a multiple of HLS_BUFFER_ALIGN), constant offsets, constant factors
 * and the induction variables that start and step by multiples of a power of two.
 *
 * The merged load happens where the first of them did, the merged store where the last
 * of them did; nothing in between may touch their bytes (memorder.c's hls_may_alias), so
 * each access still sees and leaves memory as it did. A load's pieces become element
 * extracts of the wide value, a store's data is put together with inserts. Runs after
 * the CFG analysis (dominators) and before if-conversion, which drops the stores'
 * remains and numbers the load-store units again. */
#include <stdlib.h>
#include <string.h>

#include "passes.h"

/* Operations visited for one address or one alignment at most (a chain of x + x doubles
 * the work per level). */
#define WIDEN_BUDGET 1024
/* The largest alignment tracked. */
#define SPAN_MAX ((int64_t)1 << 30)

/* The largest power of two (up to SPAN_MAX) dividing v; SPAN_MAX for 0. */
static int64_t pow2_divisor(int64_t v)
{
    int64_t span = SPAN_MAX;
    while (v && v % span)
        span >>= 1;
    return span;
}

static int small_const(const hls_kernel *k, int id, int64_t *v)
{
    const hls_op *op = &k->ops[id];
    if (op->opc != HOP_CONST || op->wide)
        return 0;
    if (op->width >= 64) {
        *v = (int64_t)op->imm;
    } else {
        uint64_t sign = 1ull << (op->width - 1), x = op->imm & ((sign << 1) - 1);
        *v = (int64_t)(x ^ sign) - (int64_t)sign;
    }
    return 1;
}

/* A power of two every value of op id is a multiple of (1 when nothing is known): a
 * constant, a buffer argument, a loop phi that starts and steps by multiples of it, a
 * sum or difference, a shift or product by a constant, a mask by a constant, an
 * extension or truncation. */
static int64_t value_span(const hls_kernel *k, int id, int *budget)
{
    const hls_op *op = &k->ops[id];
    int64_t v, s;
    if (--*budget < 0)
        return 1;
    if (small_const(k, id, &v))
        return pow2_divisor(v);
    switch (op->opc) {
    case HOP_ARG:
        return k->args[op->arg].kind == HLS_ARG_BUFFER && op->imm == 0 &&
                       (k->args[op->arg].addr_space == 1 || k->args[op->arg].addr_space == 2)
                   ? HLS_BUFFER_ALIGN
                   : 1;
    case HOP_PHI: { /* init, then phi + step */
        if (op->nin != 2)
            return 1;
        int64_t init, step;
        const hls_op *next = &k->ops[op->in_vals[1]];
        if (!small_const(k, op->in_vals[0], &init) || next->opc != HOP_ADD ||
            next->args[0] != id || !small_const(k, next->args[1], &step))
            return 1;
        s = pow2_divisor(init);
        v = pow2_divisor(step);
        return s < v ? s : v;
    }
    case HOP_SHL:
        if (small_const(k, op->args[1], &v) && v >= 0 && v < 31) {
            s = value_span(k, op->args[0], budget) << v;
            return s > SPAN_MAX ? SPAN_MAX : s;
        }
        return 1;
    case HOP_MUL:
        for (int i = 0; i < 2; i++)
            if (small_const(k, op->args[i], &v) && v) {
                s = value_span(k, op->args[1 - i], budget);
                if (__builtin_mul_overflow(s, pow2_divisor(v), &s) || s > SPAN_MAX)
                    s = SPAN_MAX;
                return s;
            }
        return 1;
    case HOP_ADD: case HOP_SUB:
        s = value_span(k, op->args[0], budget);
        v = value_span(k, op->args[1], budget);
        return s < v ? s : v;
    case HOP_ASHR: case HOP_LSHR: /* (x << k1) >> k2, k2 <= k1: x's span << (k1 - k2) */
        if (small_const(k, op->args[1], &v) && k->ops[op->args[0]].opc == HOP_SHL &&
            small_const(k, k->ops[op->args[0]].args[1], &s) && v >= 0 && v <= s && s < 64) {
            int64_t up = s - v;
            s = value_span(k, k->ops[op->args[0]].args[0], budget);
            return up >= 30 || s >= SPAN_MAX >> up ? SPAN_MAX : s << up;
        }
        return 1;
    case HOP_AND: /* x & c keeps c's low zero bits, and x's */
        for (int i = 0; i < 2; i++)
            if (small_const(k, op->args[i], &v) && v) {
                s = value_span(k, op->args[1 - i], budget);
                v = pow2_divisor(v);
                return s > v ? s : v;
            }
        return 1;
    case HOP_ZEXT: case HOP_SEXT: case HOP_TRUNC:
        s = value_span(k, op->args[0], budget);
        return op->opc == HOP_TRUNC && op->width < 31 && s > ((int64_t)1 << op->width)
                   ? (int64_t)1 << op->width
                   : s;
    default:
        return 1;
    }
}

/* Atoms of a form are op ids, or, for the extension of a value x, -(2x + 1) (zero) and
 * -(2x + 2) (sign), so that two extensions of one value are one atom. */
static int64_t atom_span(const hls_kernel *k, int atom)
{
    int budget = WIDEN_BUDGET;
    return value_span(k, atom >= 0 ? atom : (-atom - 1) / 2, &budget);
}

/* The largest power of two every value of the form is a multiple of. */
static int64_t form_span(const hls_kernel *k, const hls_form *f)
{
    int64_t span = pow2_divisor(f->constant);
    for (int i = 0; i < f->nterms; i++) {
        int64_t s = pow2_divisor(f->coef[i]), t;
        if (__builtin_mul_overflow(s, atom_span(k, f->atom[i]), &t) || t > SPAN_MAX)
            t = SPAN_MAX;
        span = t < span ? t : span;
    }
    return span;
}

/* x | c as x + c: c is a non-negative constant below x's known low zero bits (no bit
 * of c is set in x, so nothing carries). Returns x, or -1. */
static int disjoint_or(const hls_kernel *k, int id, int64_t *c)
{
    const hls_op *op = &k->ops[id];
    if (op->opc != HOP_OR)
        return -1;
    for (int i = 0; i < 2; i++)
        if (small_const(k, op->args[i], c) && *c >= 0) {
            int budget = WIDEN_BUDGET;
            if (*c < value_span(k, op->args[1 - i], &budget))
                return op->args[1 - i];
        }
    return -1;
}

/* The exact form of a 64-bit address: 64-bit adds, subtractions, products and shifts
 * by constants, disjoint ors, and extensions of x or of x | c (which is the extension
 * of x plus c); the sign extension of a 64-bit y's low 32 bits, as a sext of its
 * truncation or as LLVM's ashr(shl(y, 32), 32), is one atom. */
static void walk(const hls_kernel *k, int id, hls_form *f, int *budget)
{
    memset(f, 0, sizeof *f);
    const hls_op *op = &k->ops[id];
    hls_form g;
    int64_t v;
    if (--*budget < 0 || op->width != 64) {
        hls_form_add_term(f, id, 1);
        return;
    }
    if (small_const(k, id, &v)) {
        f->constant = v;
        return;
    }
    switch (op->opc) {
    case HOP_ADD: case HOP_SUB:
        walk(k, op->args[0], f, budget);
        walk(k, op->args[1], &g, budget);
        hls_form_add(f, &g, op->opc == HOP_ADD ? 1 : -1);
        return;
    case HOP_MUL:
        for (int i = 0; i < 2; i++)
            if (small_const(k, op->args[i], &v)) {
                walk(k, op->args[1 - i], &g, budget);
                hls_form_add(f, &g, v);
                return;
            }
        break;
    case HOP_SHL:
        if (small_const(k, op->args[1], &v) && v >= 0 && v < 32) {
            walk(k, op->args[0], &g, budget);
            hls_form_add(f, &g, (int64_t)1 << v);
            return;
        }
        break;
    case HOP_OR: {
        int x = disjoint_or(k, id, &v);
        if (x >= 0) {
            walk(k, x, f, budget);
            if (__builtin_add_overflow(f->constant, v, &f->constant))
                f->unknown = 1;
            return;
        }
        break;
    }
    case HOP_ASHR: { /* ashr(shl(y, 32), 32): the sign extension of y's low 32 bits */
        const hls_op *in = &k->ops[op->args[0]];
        int64_t w;
        if (small_const(k, op->args[1], &v) && v == 32 && in->opc == HOP_SHL &&
            small_const(k, in->args[1], &w) && w == 32) {
            hls_form_add_term(f, -(2 * in->args[0] + 2), 1);
            return;
        }
        break;
    }
    case HOP_ZEXT: case HOP_SEXT: {
        int x = op->args[0], y = disjoint_or(k, x, &v);
        if (y >= 0)
            x = y, f->constant = v;
        const hls_op *in = &k->ops[x];
        if (op->opc == HOP_SEXT && in->opc == HOP_TRUNC && in->width == 32 &&
            k->ops[in->args[0]].width == 64)
            x = in->args[0]; /* the atom of ashr(shl(x, 32), 32), the same value */
        hls_form_add_term(f, -(2 * x + (op->opc == HOP_ZEXT ? 1 : 2)), 1);
        return;
    }
    default:
        break;
    }
    hls_form_add_term(f, id, 1);
}

/* An access this pass may merge: a load or store of __global or __constant memory
 * through a load-store unit, narrower than the port, of a power-of-two width. */
static int candidate(const hls_op *op, unsigned port)
{
    return (op->opc == HOP_LOAD || op->opc == HOP_STORE) && op->lsu >= 0 && op->lmem < 0 &&
           op->rom < 0 && !op->has_pred && (op->addr_space == 1 || op->addr_space == 2) &&
           op->width >= 8 && op->width < port && !(op->width & (op->width - 1));
}

/* One access of a block: its op, place in the block, and address form. */
typedef struct access {
    int id;        /* the op */
    int pos;       /* its index in the block's list */
    int64_t off;   /* its address minus the group's first access's */
    hls_form form; /* its address */
} access;

/* The places of the accesses list[0..n) in block b again, after ops were inserted:
 * where[id] is filled for the ops older than the pass (ids below nwhere). */
static void refresh_places(const hls_block *b, int *where, int nwhere, access *list, int n)
{
    for (int p = 0; p < b->nops; p++)
        if (b->ops[p] < nwhere)
            where[b->ops[p]] = p;
    for (int i = 0; i < n; i++)
        list[i].pos = where[list[i].id];
}

static int by_offset(const void *a, const void *b)
{
    const access *x = a, *y = b;
    return x->off < y->off ? -1 : x->off > y->off;
}

/* Inserts op id at index pos of block b's list. */
static void insert_at(hls_compile *c, hls_block *b, int pos, int id)
{
    hls_ir_push(&c->arena, &b->ops, &b->nops, &b->capops, id);
    memmove(&b->ops[pos + 1], &b->ops[pos], (size_t)(b->nops - 1 - pos) * sizeof *b->ops);
    b->ops[pos] = id;
}

static int index_in(const hls_block *b, int id)
{
    for (int i = 0; i < b->nops; i++)
        if (b->ops[i] == id)
            return i;
    return -1;
}

/* A new op of block b at index pos (its place in the list). */
static hls_op *new_op(hls_compile *c, hls_kernel *k, int block, int pos, hls_opcode opc,
                      unsigned width, hls_loc loc)
{
    hls_op *op = hls_ir_new_op(k, &c->arena, opc, width);
    op->block = block;
    op->loc = loc;
    insert_at(c, &k->blocks[block], pos, op->id);
    return op;
}

static int new_const(hls_compile *c, hls_kernel *k, int block, int pos, unsigned width,
                     uint64_t v)
{
    hls_op *op = new_op(c, k, block, pos, HOP_CONST, width, (hls_loc){0});
    op->imm = width < 64 ? v & ((1ull << width) - 1) : v;
    return op->id;
}

/* 1 when run[0..n) (sorted by address) can become one access at place `at` of their
 * block: nothing between each access's place and `at` may touch its bytes (a barrier or
 * an atomic there keeps them apart). */
static int order_allows(const hls_kernel *k, const hls_block *b, const access *run, int n,
                        int at)
{
    for (int i = 0; i < n; i++) {
        int lo = run[i].pos < at ? run[i].pos : at, hi = run[i].pos < at ? at : run[i].pos;
        for (int p = lo + 1; p < hi; p++) {
            const hls_op *m = &k->ops[b->ops[p]];
            if (m->opc == HOP_BARRIER || m->opc == HOP_ATOMIC)
                return 0;
            if (!hls_ir_is_memory(m))
                continue;
            int member = 0;
            for (int j = 0; j < n && !member; j++)
                member = run[j].id == m->id;
            if (!member && hls_may_alias(k, m, &k->ops[run[i].id]))
                return 0;
        }
    }
    return 1;
}

/* Merges the n loads run[0..n) (sorted by address) into the first of them in the
 * block; the others become extracts of its value. */
static void merge_loads(hls_compile *c, hls_kernel *k, int block, access *run, int n)
{
    hls_block *b = &k->blocks[block];
    int first = 0;
    for (int i = 1; i < n; i++)
        first = run[i].pos < run[first].pos ? i : first;
    hls_op *w = &k->ops[run[first].id];
    unsigned piece = w->width;
    int wid = w->id, addr = k->ops[run[0].id].args[0];
    const hls_op *a = &k->ops[addr];
    if (!hls_ir_is_invariant(a) && a->block == block && index_in(b, addr) > run[first].pos) {
        /* the lowest address is computed later: the first's address minus the distance */
        int pos = index_in(b, wid);
        int d = new_const(c, k, block, pos, 64, (uint64_t)(run[0].off - run[first].off));
        hls_op *sum = new_op(c, k, block, pos + 1, HOP_ADD, 64, k->ops[wid].loc);
        sum->nargs = 2;
        sum->args[0] = k->ops[wid].args[0];
        sum->args[1] = d;
        addr = sum->id;
    }
    w = &k->ops[wid];
    w->args[0] = addr;
    w->width = piece * (unsigned)n;
    for (int i = 0; i < n; i++) /* an #pragma ivdep covers it when it covers every piece */
        w->ivdep &= k->ops[run[i].id].ivdep;
    /* the first's users now read lane `first` of the wide value */
    int pos = index_in(b, wid) + 1;
    int lane = new_const(c, k, block, pos, 32, (uint64_t)first);
    hls_op *x = new_op(c, k, block, pos + 1, HOP_EXTRACT, piece, k->ops[wid].loc);
    int xid = x->id;
    x->nargs = 2;
    x->args[0] = wid;
    x->args[1] = lane;
    x->imm = piece;
    int *into = arena_alloc(&c->arena, ((size_t)k->nops + 1) * sizeof *into);
    for (int i = 0; i < k->nops; i++)
        into[i] = i == wid ? xid : -1;
    hls_ir_read_through(k, into, xid);
    for (int i = 0; i < n; i++) {
        if (i == first)
            continue;
        int id = run[i].id;
        int l = new_const(c, k, block, index_in(b, id), 32, (uint64_t)i);
        hls_op *op = &k->ops[id];
        op->opc = HOP_EXTRACT;
        op->nargs = 2;
        op->args[0] = wid;
        op->args[1] = l;
        op->imm = piece;
        op->lsu = -1;
        op->addr_space = 0;
        op->ivdep = 0;
    }
}

/* Merges the n stores run[0..n) (sorted by address) into the last of them in the
 * block, whose data is theirs put together; the others are dropped. */
static void merge_stores(hls_compile *c, hls_kernel *k, int block, access *run, int n)
{
    hls_block *b = &k->blocks[block];
    int last = 0;
    for (int i = 1; i < n; i++)
        last = run[i].pos > run[last].pos ? i : last;
    int sid = run[last].id;
    unsigned piece = k->ops[sid].width, width = piece * (unsigned)n;
    hls_loc loc = k->ops[sid].loc;
    int data = new_const(c, k, block, index_in(b, sid), width, 0);
    for (int i = 0; i < n; i++) {
        int lane = new_const(c, k, block, index_in(b, sid), 32, (uint64_t)i);
        hls_op *ins = new_op(c, k, block, index_in(b, sid), HOP_INSERT, width, loc);
        ins->nargs = 3;
        ins->args[0] = data;
        ins->args[1] = k->ops[run[i].id].args[1];
        ins->args[2] = lane;
        ins->imm = piece;
        data = ins->id;
    }
    hls_op *s = &k->ops[sid];
    s->args[0] = k->ops[run[0].id].args[0];
    s->args[1] = data;
    s->width = width;
    for (int i = 0; i < n; i++)
        s->ivdep &= k->ops[run[i].id].ivdep;
    for (int i = 0; i < n; i++) {
        if (i == last)
            continue;
        hls_op *op = &k->ops[run[i].id]; /* a constant nothing reads: if-conversion drops it */
        op->opc = HOP_CONST;
        op->width = 1;
        op->nargs = 0;
        op->imm = 0;
        op->lsu = -1;
        op->addr_space = 0;
        op->ivdep = 0;
    }
}

/* The accesses of group g[0..n) (sorted by address, one width) merged in runs: from
 * each access on, the widest power-of-two run of neighbours, within the port, whose
 * lowest address is a multiple of its bytes. */
static void merge_group(hls_compile *c, hls_kernel *k, int block, access *g, int n,
                        unsigned port, int *where, int nwhere)
{
    unsigned piece = k->ops[g[0].id].width;
    for (int i = 0; i < n;) {
        int64_t align = form_span(k, &g[i].form);
        int best = 1;
        for (int m = (int)(port / piece); m >= 2 && best == 1; m /= 2) {
            int64_t bytes = (int64_t)m * piece / 8;
            if (i + m > n || align < bytes)
                continue;
            int side_by_side = 1;
            for (int j = 1; j < m && side_by_side; j++)
                side_by_side = g[i + j].off == g[i].off + (int64_t)j * piece / 8;
            if (!side_by_side)
                continue;
            int at = g[i].pos; /* a load's run where its first was, a store's its last */
            for (int j = 1; j < m; j++) {
                int there = k->ops[g[i].id].opc == HOP_STORE ? g[i + j].pos > at
                                                             : g[i + j].pos < at;
                at = there ? g[i + j].pos : at;
            }
            if (order_allows(k, &k->blocks[block], &g[i], m, at))
                best = m;
        }
        if (best > 1) {
            if (k->ops[g[i].id].opc == HOP_LOAD)
                merge_loads(c, k, block, &g[i], best);
            else
                merge_stores(c, k, block, &g[i], best);
            /* ops were inserted before the rest */
            refresh_places(&k->blocks[block], where, nwhere, &g[i + best], n - i - best);
        }
        i += best;
    }
}

static void widen_block(hls_compile *c, hls_kernel *k, int block, unsigned port)
{
    hls_block *b = &k->blocks[block];
    int nb = b->nops;
    if (nb < 2)
        return;
    access *all = arena_alloc(&c->arena, (size_t)nb * sizeof *all);
    access *g = arena_alloc(&c->arena, (size_t)nb * sizeof *g);
    char *taken = arena_alloc(&c->arena, (size_t)nb);
    int nwhere = k->nops, *where = arena_alloc(&c->arena, (size_t)nwhere * sizeof *where);
    int n = 0;
    for (int i = 0; i < nb; i++) {
        const hls_op *op = &k->ops[b->ops[i]];
        if (!candidate(op, port))
            continue;
        all[n].id = op->id;
        all[n].pos = i;
        int budget = WIDEN_BUDGET;
        walk(k, op->args[0], &all[n].form, &budget);
        all[n].off = 0;
        taken[n] = (char)all[n].form.unknown;
        n++;
    }
    /* groups: one kind and width, addresses that differ by constants */
    for (int i = 0; i < n; i++) {
        if (taken[i])
            continue;
        const hls_op *seed = &k->ops[all[i].id];
        int ng = 0;
        for (int j = i; j < n; j++) {
            const hls_op *op = &k->ops[all[j].id];
            int64_t d;
            if (taken[j] || op->opc != seed->opc || op->width != seed->width ||
                op->addr_space != seed->addr_space ||
                !hls_form_difference(&all[i].form, &all[j].form, &d))
                continue;
            int again = 0; /* a second access of one address stays apart */
            for (int q = 0; q < ng && !again; q++)
                again = g[q].off == d;
            if (again)
                continue;
            taken[j] = 1;
            g[ng] = all[j];
            g[ng++].off = d;
        }
        if (ng < 2)
            continue;
        qsort(g, (size_t)ng, sizeof *g, by_offset);
        merge_group(c, k, block, g, ng, port, where, nwhere);
        refresh_places(b, where, nwhere, all, n); /* they may have moved */
    }
}

int hls_widen(hls_compile *c)
{
    unsigned port = c->program->board->mem_width_bits;
    for (int i = 0; i < c->program->nkernels; i++) {
        hls_kernel *k = c->program->kernels[i];
        for (int b = 0; b < k->nblocks; b++)
            widen_block(c, k, b, port);
        /* the load-store units of the accesses left, numbered again in op order */
        k->nlsus = 0;
        for (int j = 0; j < k->nops; j++)
            if (k->ops[j].lsu >= 0)
                k->ops[j].lsu = k->nlsus++;
    }
    return HLS_OK;
}
