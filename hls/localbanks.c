/* Local memory banks: static wiring or a crossbar. A local memory's words are
 * interleaved over its banks (bank = byte address / word bytes % banks), and each
 * access has a port of its own. When the compiler can name, for every port, the banks
 * its address can ever reach, and no two ports share one, each bank is wired to the
 * only port that reaches it: no arbiter, no stall, no conflict (clhls_local_mem's
 * STATIC mode). Otherwise the memory keeps its crossbar, an arbiter per bank.
 *
 * The analysis is modular: every value is known as a set of residues modulo MOD (the
 * largest banks * word bytes there is), written c + g*n where g, a power of two, is
 * the step and c < g the part that is certain. Constants are exact (g = MOD); local
 * ids, arguments, loads and other opaque values are anything (g = 1); adds, multiplies
 * and shifts by constants, and bitwise operations keep what they can: 16 * lid is a
 * multiple of 16, so t[4 * lid + k] (4-byte words) reaches the bank k of four; a
 * loop's phis and a select take the union of their values (a fixpoint). The work-group
 * slot selecting the copy sits above the banks' bits (the copy is at least banks
 * words). For a memory with B banks of W bytes, a port's residues modulo B * W give
 * its banks. The pass tries the number of banks lowering chose (a bank per port, up to
 * HLS_MAX_LOCAL_BANKS) and more, up to that maximum and one word per bank, and takes
 * the first with pairwise disjoint ports; else the crossbar with lowering's number.
 *
 * Before that, accesses share ports. Two accesses may share one (a clhls_port_share in
 * front of it) when no work-group uses both: their predicates imply opposite values of
 * one condition that is the same for every work-item of a group (get_group_id and
 * arguments, not a loop's: ifconvert.c's uniform analysis), or two different cases of
 * such a switch. Every work-item passes every region (branches are if-converted), but a
 * group's work-items all find one of the two masked, so in the steady state only one of
 * them issues; the two meet only while work-items of two groups that took different
 * sides are between them. They are in different static regions too (so in different
 * memory nodes: one work-item's requests never queue behind each other). A shared
 * port's banks are those any of its accesses may reach. */
#include <string.h>

#include "passes.h"

/* Residues are kept modulo MOD: a multiple of every memory's banks * word bytes
 * (HLS_MAX_LOCAL_BANKS banks of words up to 512 bytes, checked in decide()). */
#define MOD_BITS 12
#define MOD ((uint64_t)1 << MOD_BITS)

/* A value's residues modulo MOD: c + g * n for every n (g a power of two dividing MOD,
 * c < g); g == 0: no value known yet (a phi in the fixpoint). */
typedef struct residues {
    uint64_t c, g;
} residues;

static const residues ANY = {0, 1};

/* The largest power of two dividing v, at most MOD (MOD for 0). */
static uint64_t pow2_part(uint64_t v)
{
    v %= MOD;
    return v ? v & -v : MOD;
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
    return a < b ? a : b;
}

static residues make(uint64_t c, uint64_t g)
{
    return (residues){c % g, g};
}

static residues exact(uint64_t v)
{
    return make(v % MOD, MOD);
}

/* Every value of a or b. */
static residues join(residues a, residues b)
{
    if (!a.g)
        return b;
    if (!b.g)
        return a;
    uint64_t g = min_u64(min_u64(a.g, b.g), pow2_part(a.c - b.c));
    return make(a.c, g);
}

/* (a.c + a.g n)(b.c + b.g m) = a.c b.c + a.c b.g m + b.c a.g n + a.g b.g n m */
static residues multiply(residues a, residues b)
{
    uint64_t g = min_u64(MOD, pow2_part(a.c) * b.g);
    g = min_u64(g, pow2_part(b.c) * a.g);
    g = min_u64(g, a.g * b.g);
    return make(a.c * b.c % MOD, g);
}

/* A bitwise operation: the bits below the smaller step are certain in both. */
static residues bitwise(hls_opcode opc, residues a, residues b)
{
    uint64_t g = min_u64(a.g, b.g);
    uint64_t c = opc == HOP_AND ? a.c & b.c : opc == HOP_OR ? a.c | b.c : a.c ^ b.c;
    return make(c, g);
}

/* The residues of op from its operands' current ones. */
static residues transfer(const hls_kernel *k, const hls_op *op, const residues *r)
{
    if (op->opc == HOP_CONST)
        return op->wide ? ANY : exact(op->imm);
    if (op->opc == HOP_LOCAL) /* byte 0 of the memory's own space */
        return exact(0);
    if (op->opc == HOP_PHI) {
        residues v = {0, 0};
        for (int i = 0; i < op->nin; i++)
            v = join(v, r[op->in_vals[i]]);
        return v;
    }
    if (op->width < MOD_BITS) /* wraps below MOD: residues modulo MOD mean nothing */
        return ANY;
    if (op->opc == HOP_SELECT)
        return join(r[op->args[1]], r[op->args[2]]);
    const residues *a = op->nargs > 0 ? &r[op->args[0]] : NULL;
    const residues *b = op->nargs > 1 ? &r[op->args[1]] : NULL;
    if ((a && !a->g) || (b && !b->g))
        return (residues){0, 0}; /* an operand not known yet */
    switch (op->opc) {
    case HOP_ADD:
        return make(a->c + b->c, min_u64(a->g, b->g));
    case HOP_SUB:
        return make(a->c + MOD - b->c, min_u64(a->g, b->g));
    case HOP_MUL:
        return multiply(*a, *b);
    case HOP_SHL: {
        const hls_op *s = &k->ops[op->args[1]];
        if (s->opc != HOP_CONST || s->wide)
            return ANY;
        return multiply(*a, s->imm >= MOD_BITS ? exact(0) : exact((uint64_t)1 << s->imm));
    }
    case HOP_AND: case HOP_OR: case HOP_XOR:
        return bitwise(op->opc, *a, *b);
    case HOP_ZEXT: case HOP_SEXT: case HOP_TRUNC: /* at least MOD_BITS wide: kept */
        return k->ops[op->args[0]].width < MOD_BITS ? ANY : *a;
    default:
        return ANY; /* tokens, arguments, loads, divisions, ...: any value */
    }
}

/* Every op's residues: a fixpoint from "nothing known" (phis join around loops). */
static residues *kernel_residues(hls_compile *c, const hls_kernel *k)
{
    residues *r = arena_alloc(&c->arena, ((size_t)k->nops + 1) * sizeof *r);
    memset(r, 0, ((size_t)k->nops + 1) * sizeof *r);
    for (int changed = 1, rounds = 0; changed; rounds++) {
        changed = 0;
        for (int i = 0; i < k->nops; i++) {
            residues v = transfer(k, &k->ops[i], r);
            if (rounds > 4 * MOD_BITS + 8) /* cannot happen (g only falls): be safe */
                v = ANY;
            if (v.c != r[i].c || v.g != r[i].g) {
                r[i] = v;
                changed = 1;
            }
        }
    }
    for (int i = 0; i < k->nops; i++)
        if (!r[i].g) /* never reached from a value (an unreachable cycle) */
            r[i] = ANY;
    return r;
}

/* The banks an address with residues v can reach in banks banks of word bytes. */
static unsigned banks_reached(residues v, int banks, unsigned word)
{
    uint64_t m = (uint64_t)banks * word, g = min_u64(v.g, m), mask = 0;
    for (uint64_t r = v.c % g; r < m; r += g)
        mask |= 1u << (r / word % (uint64_t)banks);
    return (unsigned)mask;
}

/* ---- port sharing ---- */

/* Most literals an access's predicate is known to imply (more are dropped: the
 * sharing only gets rarer). */
#define MAX_LITERALS 24

/* What a predicate implies: literals "op is 1" (2 * op) and "op is 0" (2 * op + 1),
 * each op a group-uniform condition of the kernel's top level. */
typedef struct implied {
    int n;                    /* literals, sorted */
    int lit[MAX_LITERALS];    /* the literals */
} implied;

typedef struct sharer {
    hls_compile *c;           /* the compilation */
    const hls_kernel *k;      /* the kernel */
    const char *uniform;      /* per op: the same for every work-item of a group */
    char *active;             /* per op: a loop's active flag (its phis[0]) */
    implied **memo;           /* per op: what it implies, once known */
    char *visiting;           /* per op: being computed (a cycle implies nothing) */
} sharer;

/* 1 when op is computed inside a loop: its value may change between iterations, so a
 * group's work-items may hold different ones at one time. */
static int in_a_loop(const hls_kernel *k, const hls_op *op)
{
    for (int r = op->region; r >= 0; r = k->regions[r].parent)
        if (k->regions[r].kind == HLS_REGION_LOOP)
            return 1;
    return 0;
}

static void add_literal(implied *s, int lit)
{
    int i = 0;
    while (i < s->n && s->lit[i] < lit)
        i++;
    if ((i < s->n && s->lit[i] == lit) || s->n == MAX_LITERALS)
        return;
    memmove(&s->lit[i + 1], &s->lit[i], (size_t)(s->n - i) * sizeof s->lit[0]);
    s->lit[i] = lit;
    s->n++;
}

static int has_literal(const implied *s, int lit)
{
    for (int i = 0; i < s->n; i++)
        if (s->lit[i] == lit)
            return 1;
    return 0;
}

/* 1 when op is a group-uniform condition of the kernel's top level. */
static int condition(const sharer *sh, int id)
{
    const hls_op *op = &sh->k->ops[id];
    return op->width == 1 && sh->uniform[id] && !in_a_loop(sh->k, op);
}

/* The literals of x being 0: x's own, and for an OR (a switch's default: no case
 * taken) both sides' being 0. */
static void negated_literals(sharer *sh, int x, implied *out, int depth)
{
    const hls_op *op = &sh->k->ops[x];
    if (!condition(sh, x))
        return;
    add_literal(out, 2 * x + 1);
    if (op->opc == HOP_OR && op->nargs == 2 && depth < 8) {
        negated_literals(sh, op->args[0], out, depth + 1);
        negated_literals(sh, op->args[1], out, depth + 1);
    }
}

/* The literals of a condition op being 1: its own, and those of the op it negates
 * being 0. */
static void condition_literals(sharer *sh, int id, implied *out)
{
    const hls_kernel *k = sh->k;
    const hls_op *op = &k->ops[id];
    if (!condition(sh, id))
        return;
    add_literal(out, 2 * id);
    if (op->opc == HOP_XOR && op->nargs == 2) { /* not x: x ^ 1 */
        const hls_op *one = &k->ops[op->args[1]];
        if (one->opc == HOP_CONST && !one->wide && one->imm == 1)
            negated_literals(sh, op->args[0], out, 0);
    }
}

/* What predicate `id` being 1 implies: an AND both sides', an OR what both sides
 * imply, a loop's active flag what its entry predicate implies (the back edge sets it
 * only for a work-item that entered active), and every uniform condition itself. */
static const implied *implies(sharer *sh, int id)
{
    static const implied none = {0};
    if (sh->memo[id])
        return sh->memo[id];
    if (sh->visiting[id])
        return &none;
    sh->visiting[id] = 1;
    const hls_op *op = &sh->k->ops[id];
    implied *s = arena_alloc(&sh->c->arena, sizeof *s);
    memset(s, 0, sizeof *s);
    if (op->width == 1 && op->opc == HOP_AND && op->nargs == 2) {
        const implied *a = implies(sh, op->args[0]), *b = implies(sh, op->args[1]);
        for (int i = 0; i < a->n; i++)
            add_literal(s, a->lit[i]);
        for (int i = 0; i < b->n; i++)
            add_literal(s, b->lit[i]);
    } else if (op->width == 1 && op->opc == HOP_OR && op->nargs == 2) {
        const implied *a = implies(sh, op->args[0]), *b = implies(sh, op->args[1]);
        for (int i = 0; i < a->n; i++)
            if (has_literal(b, a->lit[i]))
                add_literal(s, a->lit[i]);
    } else if (op->opc == HOP_PHI && sh->active[id] && op->nin == 2) {
        const implied *a = implies(sh, op->in_vals[0]);
        *s = *a;
    }
    condition_literals(sh, id, s);
    sh->visiting[id] = 0;
    sh->memo[id] = s;
    return s;
}

/* 1 when ops a and b (i1 uniform conditions) are two cases of one switch: the same
 * value compared for equality with different constants. */
static int different_cases(const hls_kernel *k, int a, int b)
{
    const hls_op *x = &k->ops[a], *y = &k->ops[b];
    if (x->opc != HOP_ICMP || y->opc != HOP_ICMP || x->imm != LLVMIntEQ ||
        y->imm != LLVMIntEQ || x->args[0] != y->args[0])
        return 0;
    const hls_op *cx = &k->ops[x->args[1]], *cy = &k->ops[y->args[1]];
    return cx->opc == HOP_CONST && cy->opc == HOP_CONST && !cx->wide && !cy->wide &&
           cx->imm != cy->imm;
}

/* 1 when no work-group runs both accesses: their predicates imply opposite values of
 * one group-uniform condition (or two cases of one switch on a uniform value). */
static int exclusive(sharer *sh, const hls_op *a, const hls_op *b)
{
    if (!a->has_pred || !b->has_pred)
        return 0;
    const implied *x = implies(sh, a->args[a->nargs - 1]);
    const implied *y = implies(sh, b->args[b->nargs - 1]);
    for (int i = 0; i < x->n; i++) {
        if (has_literal(y, x->lit[i] ^ 1))
            return 1;
        for (int j = 0; j < y->n && !(x->lit[i] & 1); j++)
            if (!(y->lit[j] & 1) && different_cases(sh->k, x->lit[i] / 2, y->lit[j] / 2))
                return 1;
    }
    return 0;
}

/* Groups memory `index`'s accesses into ports: each access joins the first port whose
 * accesses are all in other static regions and exclusive with it, else gets its own.
 * The ports are numbered in the order of their first access, so a memory whose
 * accesses share nothing keeps its numbering. */
static void share_ports(sharer *sh, hls_kernel *k, int index)
{
    hls_local *m = &k->locals[index];
    int n = m->nports;
    int *acc = arena_alloc(&sh->c->arena, ((size_t)n + 1) * sizeof *acc); /* by old port */
    int *port = arena_alloc(&sh->c->arena, ((size_t)n + 1) * sizeof *port);
    for (int i = 0; i < k->nops; i++)
        if (k->ops[i].lmem == index && hls_ir_is_memory(&k->ops[i]))
            acc[k->ops[i].lport] = i;
    int nports = 0;
    m->accesses = n;
    m->port_users = arena_alloc(&sh->c->arena, ((size_t)n + 1) * sizeof *m->port_users);
    for (int a = 0; a < n; a++) {
        const hls_op *op = &k->ops[acc[a]];
        port[a] = -1;
        for (int p = 0; p < nports && port[a] < 0; p++) {
            int ok = 1;
            for (int b = 0; b < a && ok; b++)
                if (port[b] == p) {
                    const hls_op *other = &k->ops[acc[b]];
                    ok = other->region != op->region && exclusive(sh, op, other);
                }
            if (ok)
                port[a] = p;
        }
        if (port[a] < 0) {
            port[a] = nports;
            m->port_users[nports++] = 0;
        }
        k->ops[acc[a]].lshare = m->port_users[port[a]]++;
    }
    for (int a = 0; a < n; a++) {
        hls_op *op = &k->ops[acc[a]];
        op->lport = port[a];
        if (m->port_users[port[a]] < 2)
            op->lshare = -1;
    }
    m->nports = nports;
}

static void share_kernel_ports(hls_compile *c, hls_kernel *k)
{
    sharer sh = {.c = c, .k = k};
    sh.uniform = hls_uniform_values(&c->arena, k);
    size_t n = (size_t)k->nops + 1;
    sh.active = arena_alloc(&c->arena, n);
    sh.visiting = arena_alloc(&c->arena, n);
    sh.memo = arena_alloc(&c->arena, n * sizeof *sh.memo);
    memset(sh.active, 0, n);
    memset(sh.visiting, 0, n);
    memset(sh.memo, 0, n * sizeof *sh.memo);
    for (int r = 0; r < k->nregions; r++)
        if (k->regions[r].kind == HLS_REGION_LOOP && k->regions[r].nphis)
            sh.active[k->regions[r].phis[0]] = 1;
    for (int i = 0; i < k->nlocals; i++)
        if (k->locals[i].nports > 1)
            share_ports(&sh, k, i);
        else
            k->locals[i].accesses = k->locals[i].nports;
}

/* Each port's banks for `banks` banks; 1 when they are pairwise disjoint. */
static int port_banks(const hls_kernel *k, const hls_local *m, int index, const residues *r,
                      int banks, unsigned *out)
{
    memset(out, 0, (size_t)m->nports * sizeof *out);
    for (int i = 0; i < k->nops; i++) {
        const hls_op *op = &k->ops[i];
        if (op->lmem == index && hls_ir_is_memory(op))
            out[op->lport] |= banks_reached(r[op->args[0]], banks, m->word_bits / 8);
    }
    unsigned seen = 0;
    for (int p = 0; p < m->nports; p++) {
        if (seen & out[p])
            return 0;
        seen |= out[p];
    }
    return 1;
}

/* Why the crossbar: a port that may reach every bank, else two that share one. */
static const char *crossbar_reason(hls_compile *c, const hls_local *m, const unsigned *pb)
{
    unsigned all = (1u << m->banks) - 1;
    for (int p = 0; p < m->nports; p++)
        if (pb[p] == all)
            return arena_printf(&c->arena, "port %d may hit any bank", p);
    for (int p = 0; p < m->nports; p++)
        for (int q = p + 1; q < m->nports; q++)
            if (pb[p] & pb[q])
                return arena_printf(&c->arena, "ports %d and %d may both hit bank %d", p, q,
                                    __builtin_ctz(pb[p] & pb[q]));
    return "ports may meet in a bank";
}

/* The proof, as the dump prints it: "port 0 -> bank 0, port 1 -> banks 2 3". */
static const char *static_reason(hls_compile *c, const hls_local *m)
{
    strbuf sb = {0};
    for (int p = 0; p < m->nports; p++) {
        unsigned pb = m->port_banks[p];
        sb_printf(&sb, "%sport %d -> bank%s", p ? ", " : "", p,
                  __builtin_popcount(pb) > 1 ? "s" : "");
        for (int b = 0; b < m->banks; b++)
            if (pb >> b & 1)
                sb_printf(&sb, " %d", b);
    }
    const char *s = arena_printf(&c->arena, "%s", sb.data ? sb.data : "");
    sb_free(&sb);
    return s;
}

static void decide(hls_compile *c, hls_kernel *k, int index, const residues *r)
{
    hls_local *m = &k->locals[index];
    m->port_banks = arena_alloc(&c->arena, ((size_t)m->nports + 1) * sizeof *m->port_banks);
    uint64_t words = (1ull << m->addr_bits) / (m->word_bits / 8);
    if ((uint64_t)HLS_MAX_LOCAL_BANKS * m->word_bits / 8 > MOD) { /* words beyond the analysis */
        m->wiring = HLS_BANKS_CROSSBAR;
        m->wiring_reason = "words too wide for the bank analysis";
        return;
    }
    for (int banks = m->banks; banks <= HLS_MAX_LOCAL_BANKS && (uint64_t)banks <= words;
         banks *= 2)
        if (port_banks(k, m, index, r, banks, m->port_banks)) {
            m->banks = banks;
            m->wiring = HLS_BANKS_STATIC;
            m->wiring_reason = static_reason(c, m);
            return;
        }
    port_banks(k, m, index, r, m->banks, m->port_banks);
    m->wiring = HLS_BANKS_CROSSBAR;
    m->wiring_reason = crossbar_reason(c, m, m->port_banks);
}

int hls_local_banks(hls_compile *c)
{
    for (int ki = 0; ki < c->program->nkernels; ki++) {
        hls_kernel *k = c->program->kernels[ki];
        if (!k->nlocals)
            continue;
        share_kernel_ports(c, k);
        const residues *r = kernel_residues(c, k);
        for (int i = 0; i < k->nlocals; i++)
            if (k->locals[i].nports)
                decide(c, k, i, r);
    }
    return HLS_OK;
}
