/* Affine forms of addresses: a value written as constant + sum of coef * atom, where
 * the atoms are ops the analysis does not look into (tokens, arguments, loop phis,
 * loads, divisions). The report uses them to find access patterns and predicted bank
 * conflicts, and may look through extensions and truncations (an index stays in
 * range); memory order uses the exact form, which follows only 64-bit arithmetic, so
 * two forms that differ by a constant are two addresses that differ by that constant
 * modulo 2^64, as the hardware computes them. */
#include <string.h>

#include "passes.h"

/* Operand chains followed before an operation is taken as an opaque value. */
#define FORM_DEPTH 24
/* Operations visited for one form at most: a chain of x + x doubles the work per level. */
#define FORM_BUDGET 4096

void hls_form_add_term(hls_form *f, int atom, int64_t coef)
{
    for (int i = 0; i < f->nterms; i++)
        if (f->atom[i] == atom) {
            if (__builtin_add_overflow(f->coef[i], coef, &f->coef[i]))
                f->unknown = 1;
            return;
        }
    if (f->nterms == HLS_FORM_TERMS) {
        f->unknown = 1;
        return;
    }
    f->atom[f->nterms] = atom;
    f->coef[f->nterms++] = coef;
}

void hls_form_add(hls_form *f, const hls_form *g, int64_t scale)
{
    int64_t v;
    if (__builtin_mul_overflow(scale, g->constant, &v) ||
        __builtin_add_overflow(f->constant, v, &f->constant))
        f->unknown = 1;
    f->unknown |= g->unknown;
    for (int i = 0; i < g->nterms; i++) {
        if (__builtin_mul_overflow(scale, g->coef[i], &v))
            f->unknown = 1;
        else
            hls_form_add_term(f, g->atom[i], v);
    }
}

static int64_t const_value(const hls_op *op)
{
    if (op->width >= 64)
        return (int64_t)op->imm;
    uint64_t sign = 1ull << (op->width - 1), v = op->imm & ((sign << 1) - 1);
    return (int64_t)(v ^ sign) - (int64_t)sign;
}

static int is_small_const(const hls_kernel *k, int id)
{
    const hls_op *op = &k->ops[id];
    return op->opc == HOP_CONST && !op->wide;
}

/* The largest power of two (up to 2^30) that divides every value of atom id: an
 * induction variable that starts at a constant and steps by one divides both (an
 * unrolled loop's index, which LLVM then combines with `or`). */
static int64_t atom_span(const hls_kernel *k, int id)
{
    const hls_op *op = &k->ops[id];
    int init, next;
    if (op->opc == HOP_PHI && op->nin == 2)
        init = op->in_vals[0], next = op->in_vals[1];
    else if (op->opc == HOP_RECUR)
        init = op->args[0], next = op->args[1];
    else
        return 1;
    const hls_op *step = &k->ops[next];
    if (!is_small_const(k, init) || step->opc != HOP_ADD || step->args[0] != id ||
        !is_small_const(k, step->args[1]))
        return 1;
    uint64_t bits = (uint64_t)const_value(&k->ops[init]) | (uint64_t)const_value(&k->ops[step->args[1]]);
    int64_t span = (int64_t)1 << 30;
    while (bits && span > 1 && bits % (uint64_t)span)
        span >>= 1;
    return span;
}

/* The largest power of two every value of the form is a multiple of (up to 2^30). */
static int64_t low_zero_span(const hls_kernel *k, const hls_form *f)
{
    int64_t span = (int64_t)1 << 30;
    for (int i = -1; i < f->nterms; i++) {
        int64_t v = i < 0 ? f->constant : f->coef[i];
        if (i >= 0 && v && __builtin_mul_overflow(v, atom_span(k, f->atom[i]), &v))
            v = 0; /* a multiple of every span up to 2^30 */
        while (v && v % span)
            span >>= 1;
    }
    return span;
}

static void form_walk(const hls_kernel *k, int exact, int id, hls_form *f, int depth,
                      int *budget)
{
    memset(f, 0, sizeof *f);
    const hls_op *op = &k->ops[id];
    hls_form a, b;
    if (depth > FORM_DEPTH || --*budget < 0 || (exact && op->width != 64)) {
        hls_form_add_term(f, id, 1);
        return;
    }
    switch (op->opc) {
    case HOP_CONST:
        if (op->wide)
            hls_form_add_term(f, id, 1);
        else
            f->constant = const_value(op);
        return;
    case HOP_LOCAL: /* address 0 of its own memory */
        return;
    case HOP_ADD: case HOP_SUB:
        form_walk(k, exact, op->args[0], f, depth + 1, budget);
        form_walk(k, exact, op->args[1], &b, depth + 1, budget);
        hls_form_add(f, &b, op->opc == HOP_ADD ? 1 : -1);
        return;
    case HOP_MUL:
        for (int i = 0; i < 2; i++)
            if (is_small_const(k, op->args[i])) {
                form_walk(k, exact, op->args[1 - i], &a, depth + 1, budget);
                hls_form_add(f, &a, const_value(&k->ops[op->args[i]]));
                return;
            }
        break;
    case HOP_SHL:
        if (is_small_const(k, op->args[1]) && k->ops[op->args[1]].imm < 32) {
            form_walk(k, exact, op->args[0], &a, depth + 1, budget);
            hls_form_add(f, &a, (int64_t)1 << k->ops[op->args[1]].imm);
            return;
        }
        break;
    case HOP_SEXT: case HOP_ZEXT: case HOP_TRUNC: /* indexes stay in range */
        if (exact)
            break;
        form_walk(k, exact, op->args[0], f, depth + 1, budget);
        return;
    case HOP_OR: /* x | c is x + c when c fits below x's known low zero bits */
        for (int i = 0; i < 2; i++)
            if (is_small_const(k, op->args[i]) && const_value(&k->ops[op->args[i]]) >= 0) {
                form_walk(k, exact, op->args[1 - i], &a, depth + 1, budget);
                if (!a.unknown && const_value(&k->ops[op->args[i]]) < low_zero_span(k, &a)) {
                    f->constant = const_value(&k->ops[op->args[i]]); /* below a's span */
                    hls_form_add(f, &a, 1);
                    return;
                }
            }
        break;
    default:
        break;
    }
    hls_form_add_term(f, id, 1);
}

void hls_form_of(const hls_kernel *k, int id, hls_form *f)
{
    int budget = FORM_BUDGET;
    form_walk(k, 0, id, f, 0, &budget);
}

void hls_exact_form_of(const hls_kernel *k, int id, hls_form *f)
{
    int budget = FORM_BUDGET;
    form_walk(k, 1, id, f, 0, &budget);
}

int hls_form_difference(const hls_form *a, const hls_form *b, int64_t *diff)
{
    hls_form d = *b;
    hls_form_add(&d, a, -1);
    if (d.unknown)
        return 0;
    for (int i = 0; i < d.nterms; i++)
        if (d.coef[i])
            return 0;
    *diff = d.constant;
    return 1;
}
