/* The random kernel generator (see gen.h). Every piece of text comes from an arena that
 * lives as long as the kernel. Expressions are built bottom-up as strings of an exact
 * OpenCL C type: each case below produces exactly the type it is asked for (integer
 * promotions are undone with explicit casts), so built-in overloads never become
 * ambiguous. Statements form a tree; the reducer switches nodes off and prints again. */
#include "gen.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- arena and text ---- */

typedef struct arena_block {
    struct arena_block *next;   /* the block allocated before */
    size_t used;                /* bytes handed out */
    size_t size;                /* bytes in data */
    char data[];                /* the memory */
} arena_block;

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "clhls_fuzz: out of memory\n");
        abort();
    }
    return p;
}

static void *arena_alloc(arena_block **arena, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    if (!*arena || (*arena)->used + n > (*arena)->size) {
        size_t size = n > 65536 ? n : 65536;
        arena_block *b = xmalloc(sizeof *b + size);
        b->next = *arena;
        b->used = 0;
        b->size = size;
        *arena = b;
    }
    void *p = (*arena)->data + (*arena)->used;
    (*arena)->used += n;
    return p;
}

static void arena_free(arena_block *arena)
{
    while (arena) {
        arena_block *next = arena->next;
        free(arena);
        arena = next;
    }
}

/* A growing string. */
typedef struct sbuf {
    char *text;     /* NUL-terminated */
    size_t len;     /* characters in text */
    size_t cap;     /* bytes allocated */
} sbuf;

static void sb_vprintf(sbuf *sb, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (sb->len + (size_t)n + 1 > sb->cap) {
        size_t cap = sb->cap ? sb->cap : 256;
        while (cap < sb->len + (size_t)n + 1)
            cap *= 2;
        char *t = realloc(sb->text, cap);
        if (!t) {
            fprintf(stderr, "clhls_fuzz: out of memory\n");
            abort();
        }
        sb->text = t;
        sb->cap = cap;
    }
    vsnprintf(sb->text + sb->len, (size_t)n + 1, fmt, ap);
    sb->len += (size_t)n;
}

static void sb_printf(sbuf *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(sb, fmt, ap);
    va_end(ap);
}

/* ---- types ---- */

typedef enum ty {
    TY_INT, TY_UINT, TY_LONG, TY_ULONG, TY_USHORT, TY_UCHAR, TY_FLOAT, TY_UINT4, TY_FLOAT4,
    TY_DOUBLE, TY_COUNT
} ty;

static const char *const ty_name[TY_COUNT] = {
    "int", "uint", "long", "ulong", "ushort", "uchar", "float", "uint4", "float4", "double",
};

static int ty_is_int(ty t) { return t <= TY_UCHAR; }
static int ty_is_64(ty t) { return t == TY_LONG || t == TY_ULONG; }

/* ---- the kernel ---- */

enum { MAX_VARS = 64, MAX_FIELDS = 6, ARRAY_LEN = 8, STRUCT_ARRAY_LEN = 4 };

/* A named value the expressions can read (and, unless read_only, assign). */
typedef struct var {
    const char *name;   /* C name */
    ty type;            /* its type */
    int read_only;      /* loop counters */
} var;

/* A private array: name[ARRAY_LEN] of elem. */
typedef struct array {
    const char *name;   /* C name */
    ty elem;            /* element type (scalar) */
} array;

/* A field of the kernel's struct type. */
typedef struct field {
    const char *name;   /* member name */
    ty type;            /* its type */
    int is_array;       /* a STRUCT_ARRAY_LEN array of type */
} field;

/* A node of the statement tree: head, the body, mid, the alternative body, tail. */
typedef struct stmt {
    const char *head;           /* text before the body (a whole leaf statement) */
    const char *mid;            /* between body and alt ("} else {"), or NULL */
    const char *tail;           /* after the bodies, or NULL */
    struct stmt **body;         /* first list of children */
    int nbody;                  /* how many */
    struct stmt **alt;          /* second list of children (else) */
    int nalt;                   /* how many */
    int id;                     /* pre-order number */
    int removable;              /* the reducer may drop it */
    int removed;                /* dropped */
    int branch_barrier;         /* a barrier under a group-uniform branch or loop */
    struct stmt *parent;        /* the enclosing node, NULL at the top */
} stmt;

struct fz_kernel {
    arena_block *arena;         /* every allocation of the kernel */
    uint64_t seed;              /* the seed */
    uint64_t rng;               /* generator state */
    uint64_t rng2;              /* the second stream: the draws of constructs added after
                                 * long runs began, so that earlier seeds keep theirs */
    uint64_t rng3;              /* the third stream: the global exchanges, which came
                                 * after the second stream's constructs */
    unsigned features;          /* FZ_* */
    char name[32];              /* k_<seed> */
    fz_shape shape;             /* the NDRange */
    size_t local_total;         /* product of the local sizes */
    int cl20;                   /* uses work-group functions */
    int reqd_wg;                /* declares reqd_work_group_size */
    var vars[MAX_VARS];         /* readable values, loop counters at the end */
    int nvars;                  /* how many */
    int ndeclared;              /* vars[0..ndeclared) are declared at the top */
    array arrays[4];            /* private arrays */
    int narrays;                /* how many */
    int array_ptr;              /* a0 and a1 share a type, and fz_p points to either */
    int doubles;                /* double variables vd0.. (FZ_DOUBLE) */
    int second;                 /* nesting of second_stream(k, 1) */
    field fields[MAX_FIELDS];   /* the struct type's members */
    int nfields;                /* how many (0: no struct) */
    int uses_local;             /* declares the __local exchange array */
    int uses_local_atomic;      /* declares the __local atomic counters */
    int uses_collective;        /* declares the reference collectives' scratch */
    int counters;               /* loop counters made so far (names) */
    stmt *top;                  /* the kernel body (a node with only a body) */
    stmt **by_id;               /* nodes in pre-order */
    int nstmts;                 /* how many */
    int budget;                 /* statements still to generate */
};

/* Generation context of a statement. */
typedef struct ctx {
    int depth;          /* nesting of compound statements */
    int uniform;        /* the whole work-group executes this point together */
    int breakable;      /* inside a loop that break/continue may leave */
    int loops;          /* enclosing loops */
} ctx;

/* ---- random numbers (splitmix64) ---- */

static uint64_t rnd64(fz_kernel *k)
{
    uint64_t z = (k->rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static unsigned rnd(fz_kernel *k, unsigned n) { return (unsigned)(rnd64(k) % n); }

/* Every draw between second_stream(k, 1) and second_stream(k, 0) comes from the second
 * stream (the pairs nest). */
static void second_stream(fz_kernel *k, int enter)
{
    if (enter ? k->second++ == 0 : --k->second == 0) {
        uint64_t first = k->rng;
        k->rng = k->rng2;
        k->rng2 = first;
    }
}

/* The same for the third stream; the second does not switch inside it. */
static void third_stream(fz_kernel *k, int enter)
{
    uint64_t first = k->rng;
    k->rng = k->rng3;
    k->rng3 = first;
    k->second += enter ? 1 : -1;
}

static int chance(fz_kernel *k, unsigned percent) { return rnd(k, 100) < percent; }
static int has(const fz_kernel *k, unsigned feature) { return (k->features & feature) != 0; }

static char *fmt(fz_kernel *k, const char *f, ...)
{
    va_list ap, ap2;
    va_start(ap, f);
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, f, ap);
    va_end(ap);
    char *s = arena_alloc(&k->arena, (size_t)n + 1);
    vsnprintf(s, (size_t)n + 1, f, ap2);
    va_end(ap2);
    return s;
}

/* ---- constants ---- */

static uint64_t interesting_bits(fz_kernel *k, unsigned bits)
{
    uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
    switch (rnd(k, 6)) {
    case 0: return rnd(k, 17);
    case 1: return mask - rnd(k, 3);                        /* -1, -2, -3 */
    case 2: return (1ull << (bits - 1)) - rnd(k, 2);        /* MIN, MAX */
    case 3: return (1ull << rnd(k, bits)) & mask;
    default: return rnd64(k) & mask;
    }
}

static float interesting_float(fz_kernel *k)
{
    static const float small[] = { 0.0f, 1.0f, -1.0f, 0.5f, 2.0f, 3.0f, -0.25f, 10.0f, 1e30f,
                                   -1e30f, 1e-20f, 255.0f, 65536.0f, 0.1f, 1.5f };
    if (chance(k, 50))
        return small[rnd(k, sizeof small / sizeof small[0])];
    uint32_t bits = (uint32_t)(rnd(k, 2) << 31) | ((uint32_t)(107 + rnd(k, 41)) << 23) |
                    (uint32_t)(rnd64(k) & 0x7fffff);
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

static const char *float_literal(fz_kernel *k, float f)
{
    return fmt(k, "%af", (double)f);
}

static const char *constant(fz_kernel *k, ty t)
{
    switch (t) {
    case TY_INT: return fmt(k, "as_int(0x%xu)", (unsigned)interesting_bits(k, 32));
    case TY_UINT: return fmt(k, "0x%xu", (unsigned)interesting_bits(k, 32));
    case TY_LONG:
        return fmt(k, "as_long(0x%llxUL)", (unsigned long long)interesting_bits(k, 64));
    case TY_ULONG: return fmt(k, "0x%llxUL", (unsigned long long)interesting_bits(k, 64));
    case TY_USHORT: return fmt(k, "((ushort)0x%xu)", (unsigned)interesting_bits(k, 16));
    case TY_UCHAR: return fmt(k, "((uchar)0x%xu)", (unsigned)interesting_bits(k, 8));
    case TY_FLOAT: return float_literal(k, interesting_float(k));
    case TY_UINT4:
        return fmt(k, "((uint4)(0x%xu, 0x%xu, 0x%xu, 0x%xu))", (unsigned)interesting_bits(k, 32),
                   (unsigned)interesting_bits(k, 32), (unsigned)interesting_bits(k, 32),
                   (unsigned)interesting_bits(k, 32));
    case TY_FLOAT4:
        return fmt(k, "((float4)(%s, %s, %s, %s))", float_literal(k, interesting_float(k)),
                   float_literal(k, interesting_float(k)), float_literal(k, interesting_float(k)),
                   float_literal(k, interesting_float(k)));
    case TY_DOUBLE: {
        static const double small[] = { 0.0, 1.0, -1.0, 0.5, 3.0, -0.1, 1e300, -1e300,
                                        1e-300, 0x1p-1074, 0x1p-1022, 4503599627370495.5,
                                        0x1.fffffffffffffp+1023 };
        double d = small[rnd(k, sizeof small / sizeof small[0])];
        if (chance(k, 50)) {   /* random bits short of NaN and infinity */
            uint64_t bits = rnd64(k);
            if (((bits >> 52) & 0x7ff) == 0x7ff)
                bits &= ~(1ull << 62);
            memcpy(&d, &bits, sizeof d);
        }
        return fmt(k, "%a", d);
    }
    default: abort();
    }
}

/* ---- conversions ---- */

static const char *const rounding[] = { "", "_rte", "_rtz", "_rtp", "_rtn" };

/* e (of type from) as a value of type to, with defined results only. */
static const char *convert(fz_kernel *k, const char *e, ty from, ty to)
{
    if (from == to)
        return e;
    if (to == TY_DOUBLE || from == TY_DOUBLE) {
        ty other = to == TY_DOUBLE ? from : to;
        if (other == TY_UINT4 || other == TY_FLOAT4) {   /* through one element */
            ty scalar = other == TY_UINT4 ? TY_UINT : TY_FLOAT;
            return convert(k, convert(k, e, from, scalar), scalar, to);
        }
        if (to == TY_DOUBLE)   /* exact but from the 64-bit integers */
            return fmt(k, "convert_double%s(%s)", ty_is_64(from) ? rounding[rnd(k, 5)] : "", e);
        if (to == TY_FLOAT)    /* a float result below 2^-126 is flushed by clhls */
            return fmt(k, "fz_f(convert_float%s(%s))", rounding[rnd(k, 5)], e);
        return fmt(k, "convert_%s_sat%s(%s)", ty_name[to], rounding[rnd(k, 5)], e);
    }
    if (ty_is_int(from) && ty_is_int(to)) {
        switch (to) {
        case TY_INT: return fmt(k, "as_int((uint)(%s))", e);
        case TY_LONG: return fmt(k, "as_long((ulong)(%s))", e);
        default: return fmt(k, "((%s)(%s))", ty_name[to], e);
        }
    }
    if (ty_is_int(from) && to == TY_FLOAT) {
        const char *r = has(k, FZ_CONVERT) ? rounding[rnd(k, 5)] : "";
        return fmt(k, "convert_float%s(%s)", r, e);
    }
    if (from == TY_FLOAT && ty_is_int(to)) {
        if (has(k, FZ_CONVERT))
            return fmt(k, "convert_%s_sat%s(%s)", ty_name[to], rounding[rnd(k, 5)], e);
        return convert(k, fmt(k, "as_uint(%s)", e), TY_UINT, to);
    }
    if (from == TY_UINT4) {
        if (to == TY_FLOAT4)
            return fmt(k, "fz_f4(convert_float4%s(%s))",
                       has(k, FZ_CONVERT) ? rounding[rnd(k, 5)] : "", e);
        return convert(k, fmt(k, "(%s).s%u", e, rnd(k, 4)), TY_UINT, to);
    }
    if (from == TY_FLOAT4) {
        if (to == TY_UINT4) {
            if (has(k, FZ_CONVERT))
                return fmt(k, "convert_uint4_sat%s(%s)", rounding[rnd(k, 5)], e);
            return fmt(k, "as_uint4(%s)", e);
        }
        return convert(k, fmt(k, "(%s).s%u", e, rnd(k, 4)), TY_FLOAT, to);
    }
    if (to == TY_UINT4)
        return fmt(k, "((uint4)(%s))", convert(k, e, from, TY_UINT));
    if (to == TY_FLOAT4)
        return fmt(k, "((float4)(%s))", convert(k, e, from, TY_FLOAT));
    abort();
}

/* ---- expressions ---- */

static const char *expr(fz_kernel *k, ty t, int depth);

static const char *uint_index(fz_kernel *k, int depth)
{
    return expr(k, TY_UINT, depth > 1 ? 1 : 0);
}

static const char *condition(fz_kernel *k, int depth);

/* An element of a0 or a1 chosen at run time, or of the one fz_p points to: a read
 * when `value` is NULL, else an assignment of it (or fz_p set to either array). */
static const char *chosen_element(fz_kernel *k, int depth, const char *value)
{
    const char *first = rnd(k, 2) ? "a0" : "a1", *other = first[1] == '0' ? "a1" : "a0";
    unsigned r = rnd(k, value ? 4 : 3);
    if (r == 3)
        return fmt(k, "fz_p = %s ? %s : %s;", condition(k, 1), first, other);
    const char *at;
    if (r == 0)
        at = fmt(k, "fz_p[(%s) & %uu]", uint_index(k, depth), ARRAY_LEN - 1);
    else {   /* c ? a[i] : b[j] is no lvalue: a write goes through the addresses */
        const char *c = condition(k, 1), *i = uint_index(k, depth), *j = uint_index(k, depth);
        at = fmt(k, r == 1 && !value ? "(%s ? %s[(%s) & %uu] : %s[(%s) & %uu])"
                                     : "*(%s ? &%s[(%s) & %uu] : &%s[(%s) & %uu])",
                 c, first, i, ARRAY_LEN - 1, other, j, ARRAY_LEN - 1);
    }
    return value ? fmt(k, "%s = %s;", at, value) : at;
}

static const char *source(fz_kernel *k, ty t);

/* A double read from somewhere: a double variable, another type's value converted, bits
 * of the input, a constant. */
static const char *double_source(fz_kernel *k)
{
    switch (rnd(k, 5)) {
    case 0:
    case 1:
        if (k->doubles)
            return fmt(k, "vd%u", rnd(k, (unsigned)k->doubles));
        /* fall through */
    case 2: {
        ty from = (ty[]){ TY_INT, TY_UINT, TY_LONG, TY_ULONG, TY_FLOAT }[rnd(k, 5)];
        if ((ty_is_64(from) && !has(k, FZ_LONG)) || (from == TY_FLOAT && !has(k, FZ_FLOAT)))
            from = TY_INT;
        return convert(k, source(k, from), from, TY_DOUBLE);
    }
    case 3: {
        const char *hi = uint_index(k, 0), *lo = uint_index(k, 0);
        return fmt(k, "fz_d(as_double(((ulong)in[(%s) & %uu] << 32) | in[(%s) & %uu]))", hi,
                   FZ_INPUT_WORDS - 1, lo, FZ_INPUT_WORDS - 1);
    }
    default:
        return constant(k, TY_DOUBLE);
    }
}

/* A value read from somewhere (a variable, an array, the struct, the input, an id),
 * converted to t. */
static const char *plain_source(fz_kernel *k, ty t)
{
    for (int tries = 0; tries < 4; tries++) {
        switch (rnd(k, 8)) {
        case 0:
        case 1: {   /* a variable of the same type, if any */
            int candidates[MAX_VARS], n = 0;
            for (int i = 0; i < k->nvars; i++)
                if (k->vars[i].type == t)
                    candidates[n++] = i;
            if (n)
                return k->vars[candidates[rnd(k, (unsigned)n)]].name;
            break;
        }
        case 2: {   /* any variable */
            var *v = &k->vars[rnd(k, (unsigned)k->nvars)];
            return convert(k, v->name, v->type, t);
        }
        case 3:
            if (k->narrays) {
                array *a = &k->arrays[rnd(k, (unsigned)k->narrays)];
                const char *read = convert(k, fmt(k, "%s[(%s) & %uu]", a->name, uint_index(k, 0),
                                                  ARRAY_LEN - 1), a->elem, t);
                second_stream(k, 1);
                if (k->array_ptr && chance(k, 40))
                    read = convert(k, chosen_element(k, 0, NULL), k->arrays[0].elem, t);
                second_stream(k, 0);
                return read;
            }
            break;
        case 4:
            if (k->nfields) {
                field *f = &k->fields[rnd(k, (unsigned)k->nfields)];
                if (f->is_array)
                    return convert(k, fmt(k, "st.%s[(%s) & %uu]", f->name, uint_index(k, 0),
                                          STRUCT_ARRAY_LEN - 1), f->type, t);
                return convert(k, fmt(k, "st.%s", f->name), f->type, t);
            }
            break;
        case 5: {
            const char *in = fmt(k, "in[(%s) & %uu]", uint_index(k, 0), FZ_INPUT_WORDS - 1);
            if (t == TY_FLOAT)
                return fmt(k, "fz_f(as_float(%s))", in);
            return convert(k, in, TY_UINT, t);
        }
        case 6: {
            static const char *const ids[] = { "get_global_id", "get_local_id", "get_group_id",
                                               "get_local_size", "get_num_groups" };
            return convert(k, fmt(k, "(uint)%s(%u)", ids[rnd(k, 5)], rnd(k, k->shape.dims)),
                           TY_UINT, t);
        }
        default:
            return constant(k, t);
        }
    }
    return constant(k, t);
}

/* A value read from somewhere, converted to t; in a kernel with doubles sometimes (on
 * the second stream) a double expression converted. */
static const char *source(fz_kernel *k, ty t)
{
    if (t == TY_DOUBLE)
        return double_source(k);
    const char *read = plain_source(k, t);
    if (k->doubles && !k->second) {
        second_stream(k, 1);
        if (chance(k, 10))
            read = convert(k, expr(k, TY_DOUBLE, 2), TY_DOUBLE, t);
        second_stream(k, 0);
    }
    return read;
}

static const char *int_binary(fz_kernel *k, ty t, const char *a, const char *b)
{
    static const char *const ops[] = { "+", "-", "*", "&", "|", "^" };
    unsigned choice = rnd(k, has(k, FZ_DIV) ? 10 : 8);
    if (choice < 6) {
        const char *op = ops[choice];
        switch (t) {
        case TY_INT: return fmt(k, "as_int(as_uint(%s) %s as_uint(%s))", a, op, b);
        case TY_LONG: return fmt(k, "as_long(as_ulong(%s) %s as_ulong(%s))", a, op, b);
        case TY_UINT:
        case TY_ULONG: return fmt(k, "(%s %s %s)", a, op, b);
        default: return fmt(k, "((%s)((uint)(%s) %s (uint)(%s)))", ty_name[t], a, op, b);
        }
    }
    if (choice < 8) {
        const char *op = choice == 6 ? "<<" : ">>";
        switch (t) {
        case TY_INT:
            if (choice == 6)
                return fmt(k, "as_int(as_uint(%s) << (as_uint(%s) & 31u))", a, b);
            return fmt(k, "(%s >> (%s & 31))", a, b);
        case TY_LONG:
            if (choice == 6)
                return fmt(k, "as_long(as_ulong(%s) << (as_ulong(%s) & 63UL))", a, b);
            return fmt(k, "(%s >> (%s & 63L))", a, b);
        case TY_UINT: return fmt(k, "(%s %s (%s & 31u))", a, op, b);
        case TY_ULONG: return fmt(k, "(%s %s (%s & 63UL))", a, op, b);
        default:
            return fmt(k, "((%s)((uint)(%s) %s ((uint)(%s) & 15u)))", ty_name[t], a, op, b);
        }
    }
    const char *fn = choice == 8 ? "div" : "mod";
    switch (t) {
    case TY_INT:
    case TY_UINT:
    case TY_LONG:
    case TY_ULONG: return fmt(k, "fz_%s_%s(%s, %s)", fn, ty_name[t], a, b);
    default: return fmt(k, "((%s)fz_%s_uint((uint)(%s), (uint)(%s)))", ty_name[t], fn, a, b);
    }
}

static const char *int_builtin(fz_kernel *k, ty t, int depth)
{
    const char *a = expr(k, t, depth - 1);
    const char *b = expr(k, t, depth - 1);
    const char *T = ty_name[t];
    switch (rnd(k, 11)) {
    case 0: return fmt(k, "min(%s, %s)", a, b);
    case 1: return fmt(k, "max(%s, %s)", a, b);
    case 2: return fmt(k, "add_sat(%s, %s)", a, b);
    case 3: return fmt(k, "sub_sat(%s, %s)", a, b);
    case 4: return fmt(k, "hadd(%s, %s)", a, b);
    case 5: return fmt(k, "rhadd(%s, %s)", a, b);
    case 6: return fmt(k, "rotate(%s, %s)", a, b);
    case 7: return fmt(k, "popcount(%s)", a);
    case 8: return fmt(k, "clz(%s)", a);
    case 9: return fmt(k, "mul_hi(%s, %s)", a, b);
    default:
        if (t == TY_INT || t == TY_LONG)
            return fmt(k, "as_%s(FZ_ABS_DIFF(%s, %s))", T, a, b);
        return fmt(k, "abs_diff(%s, %s)", a, b);
    }
}

/* An int 0/1 condition. */
static const char *condition(fz_kernel *k, int depth)
{
    static const char *const cmp[] = { "<", ">", "<=", ">=", "==", "!=" };
    ty t;
    unsigned r = rnd(k, 10);
    if (r < 2 && has(k, FZ_FLOAT))
        t = TY_FLOAT;
    else if (r < 3 && has(k, FZ_LONG))
        t = rnd(k, 2) ? TY_LONG : TY_ULONG;
    else
        t = rnd(k, 2) ? TY_INT : TY_UINT;
    if (ty_is_int(t) && chance(k, 30))
        return fmt(k, "((%s & %uu) == %uu)", convert(k, expr(k, t, depth), t, TY_UINT), 3u,
                   rnd(k, 4));
    return fmt(k, "(%s %s %s)", expr(k, t, depth), cmp[rnd(k, 6)], expr(k, t, depth));
}

static const char *float_expr(fz_kernel *k, int depth)
{
    const char *a = expr(k, TY_FLOAT, depth - 1);
    unsigned r = rnd(k, 16);
    if (r < 6) {
        static const char *const ops[] = { "+", "-", "*", "/" };
        return fmt(k, "fz_f(%s %s %s)", a, ops[r % 4], expr(k, TY_FLOAT, depth - 1));
    }
    switch (r) {
    case 6: return fmt(k, "fz_f(sqrt(%s))", a);
    case 7: return fmt(k, "fmin(%s, %s)", a, expr(k, TY_FLOAT, depth - 1));
    case 8: return fmt(k, "fmax(%s, %s)", a, expr(k, TY_FLOAT, depth - 1));
    case 9: return fmt(k, "fabs(%s)", a);
    case 10: {
        static const char *const fns[] = { "floor", "ceil", "trunc", "rint", "round" };
        return fmt(k, "fz_f(%s(%s))", fns[rnd(k, 5)], a);
    }
    case 11: return fmt(k, "fz_f(copysign(%s, %s))", a, expr(k, TY_FLOAT, depth - 1));
    case 12:
        if (has(k, FZ_FMA))
            return fmt(k, "fz_f(fma(%s, %s, %s))", a, expr(k, TY_FLOAT, depth - 1),
                       expr(k, TY_FLOAT, depth - 1));
        return fmt(k, "fz_f(-%s)", a);
    case 13:
        if (has(k, FZ_BRANCH))
            return fmt(k, "(%s ? %s : %s)", condition(k, depth - 1), a,
                       expr(k, TY_FLOAT, depth - 1));
        return a;
    default: {
        ty from = rnd(k, 2) ? TY_INT : TY_UINT;
        return fmt(k, "fz_f(%s)", convert(k, expr(k, from, depth - 1), from, TY_FLOAT));
    }
    }
}

/* A double expression: correctly rounded operations, exact built-ins and conversions,
 * each result through fz_d (no NaN payloads, no -0). */
static const char *double_expr(fz_kernel *k, int depth)
{
    const char *a = expr(k, TY_DOUBLE, depth - 1);
    unsigned r = rnd(k, 15);
    if (r < 5) {
        static const char *const ops[] = { "+", "-", "*", "/" };
        const char *b = expr(k, TY_DOUBLE, depth - 1);
        return fmt(k, "fz_d(%s %s %s)", a, ops[r % 4], b);
    }
    switch (r) {
    case 5: return fmt(k, "fz_d(sqrt(%s))", a);
    case 6: {
        const char *fn = rnd(k, 2) ? "fmin" : "fmax", *b = expr(k, TY_DOUBLE, depth - 1);
        return fmt(k, "%s(%s, %s)", fn, a, b);
    }
    case 7: return fmt(k, "fabs(%s)", a);
    case 8: {
        static const char *const fns[] = { "floor", "ceil", "trunc", "rint", "round" };
        return fmt(k, "fz_d(%s(%s))", fns[rnd(k, 5)], a);
    }
    case 9: return fmt(k, "fz_d(copysign(%s, %s))", a, expr(k, TY_DOUBLE, depth - 1));
    case 10:
        if (has(k, FZ_FMA)) {
            const char *b = expr(k, TY_DOUBLE, depth - 1), *d = expr(k, TY_DOUBLE, depth - 1);
            return fmt(k, "fz_d(fma(%s, %s, %s))", a, b, d);
        }
        return fmt(k, "fz_d(-%s)", a);
    case 11:
        if (has(k, FZ_BRANCH)) {
            const char *cond = condition(k, depth - 1), *b = expr(k, TY_DOUBLE, depth - 1);
            return fmt(k, "(%s ? %s : %s)", cond, a, b);
        }
        return a;
    default: {
        ty from = (ty[]){ TY_INT, TY_UINT, TY_LONG, TY_ULONG, TY_FLOAT }[rnd(k, 5)];
        if ((ty_is_64(from) && !has(k, FZ_LONG)) || (from == TY_FLOAT && !has(k, FZ_FLOAT)))
            from = TY_UINT;
        return convert(k, expr(k, from, depth - 1), from, TY_DOUBLE);
    }
    }
}

/* Four words of the input, with vload4 or through a uint4 pointer. */
static const char *vector_load(fz_kernel *k, const char *index)
{
    if (!k->cl20 && chance(k, 50))
        return fmt(k, "vload4((%s) & %uu, in)", index, FZ_INPUT_WORDS / 4 - 1);
    return fmt(k, "((const __global uint4 *)in)[(%s) & %uu]", index, FZ_INPUT_WORDS / 4 - 1);
}

static const char *vector_expr(fz_kernel *k, ty t, int depth)
{
    static const char comp[] = "xyzw";
    const char *a = expr(k, t, depth - 1);
    unsigned r = rnd(k, 8);
    if (r < 3 && t == TY_UINT4) {
        static const char *const ops[] = { "+", "-", "*", "&", "|", "^", "<<", ">>" };
        unsigned o = rnd(k, 8);
        const char *b = expr(k, t, depth - 1);
        if (o >= 6)
            return fmt(k, "(%s %s (%s & (uint4)(31u)))", a, ops[o], b);
        return fmt(k, "(%s %s %s)", a, ops[o], b);
    }
    if (r < 3) {
        static const char *const ops[] = { "+", "-", "*", "/" };
        return fmt(k, "fz_f4(%s %s %s)", a, ops[rnd(k, 4)], expr(k, t, depth - 1));
    }
    switch (r) {
    case 3:
        return fmt(k, "(%s).%c%c%c%c", a, comp[rnd(k, 4)], comp[rnd(k, 4)], comp[rnd(k, 4)],
                   comp[rnd(k, 4)]);
    case 4:
        if (t == TY_UINT4)
            return fmt(k, "%s(%s, %s)", rnd(k, 2) ? "min" : (rnd(k, 2) ? "rotate" : "add_sat"),
                       a, expr(k, t, depth - 1));
        return fmt(k, "%s(%s, %s)", rnd(k, 2) ? "fmin" : "fmax", a, expr(k, t, depth - 1));
    case 5:
        return fmt(k, "select(%s, %s, %s < %s)", a, expr(k, t, depth - 1), expr(k, t, depth - 1),
                   expr(k, t, depth - 1));
    case 6: {
        ty s = t == TY_UINT4 ? TY_UINT : TY_FLOAT;
        return fmt(k, "((%s)(%s, %s, %s, %s))", ty_name[t], expr(k, s, depth - 1),
                   expr(k, s, depth - 1), expr(k, s, depth - 1), expr(k, s, depth - 1));
    }
    default:
        if (t == TY_UINT4 && chance(k, 50))
            return vector_load(k, uint_index(k, depth));
        if (t == TY_FLOAT4)
            return fmt(k, "fz_f4(%s(%s))", rnd(k, 2) ? "sqrt" : "floor", a);
        return convert(k, expr(k, TY_FLOAT4, depth - 1), TY_FLOAT4, t);
    }
}

static const char *expr(fz_kernel *k, ty t, int depth)
{
    if (depth <= 0 || chance(k, 25))
        return source(k, t);
    if (t == TY_FLOAT)
        return float_expr(k, depth);
    if (t == TY_DOUBLE)
        return double_expr(k, depth);
    if (t == TY_UINT4 || t == TY_FLOAT4)
        return vector_expr(k, t, depth);
    unsigned r = rnd(k, 12);
    if (r < 5)
        return int_binary(k, t, expr(k, t, depth - 1), expr(k, t, depth - 1));
    switch (r) {
    case 5:
        if (t == TY_INT)
            return fmt(k, "as_int(%s(as_uint(%s)))", rnd(k, 2) ? "~" : "0u - ", expr(k, t, depth - 1));
        if (t == TY_LONG)
            return fmt(k, "as_long(%s(as_ulong(%s)))", rnd(k, 2) ? "~" : "0UL - ",
                       expr(k, t, depth - 1));
        return fmt(k, "((%s)(~%s))", ty_name[t], expr(k, t, depth - 1));
    case 6:
    case 7:
        if (has(k, FZ_BUILTIN))
            return int_builtin(k, t, depth);
        return source(k, t);
    case 8:
        if (has(k, FZ_BRANCH))
            return fmt(k, "((%s)(%s ? %s : %s))", ty_name[t], condition(k, depth - 1),
                       expr(k, t, depth - 1), expr(k, t, depth - 1));
        return source(k, t);
    case 9:
        return convert(k, condition(k, depth - 1), TY_INT, t);
    default: {
        static const ty others[] = { TY_INT, TY_UINT, TY_LONG, TY_ULONG, TY_USHORT, TY_UCHAR,
                                     TY_FLOAT, TY_UINT4, TY_FLOAT4 };
        ty from = others[rnd(k, 9)];
        if ((from == TY_FLOAT || from == TY_FLOAT4) && !has(k, FZ_FLOAT))
            from = TY_UINT;
        if ((from == TY_UINT4 || from == TY_FLOAT4) && !has(k, FZ_VECTOR))
            from = TY_INT;
        if (ty_is_64(from) && !has(k, FZ_LONG))
            from = TY_UINT;
        if ((from == TY_USHORT || from == TY_UCHAR) && !has(k, FZ_NARROW))
            from = TY_INT;
        return convert(k, expr(k, from, depth - 1), from, t);
    }
    }
}

/* ---- statements ---- */

static stmt *new_stmt(fz_kernel *k, const char *head, const char *mid, const char *tail)
{
    stmt *s = arena_alloc(&k->arena, sizeof *s);
    memset(s, 0, sizeof *s);
    s->head = head;
    s->mid = mid;
    s->tail = tail;
    s->removable = 1;
    return s;
}

static void add_child(fz_kernel *k, stmt *parent, stmt *child, int alt)
{
    stmt ***list = alt ? &parent->alt : &parent->body;
    int *n = alt ? &parent->nalt : &parent->nbody;
    stmt **grown = arena_alloc(&k->arena, sizeof(stmt *) * (size_t)(*n + 1));
    if (*n)
        memcpy(grown, *list, sizeof(stmt *) * (size_t)*n);
    grown[(*n)++] = child;
    *list = grown;
    child->parent = parent;
}

static void gen_block(fz_kernel *k, stmt *parent, int alt, int count, ctx c);

/* A scalar variable that may be assigned. */
static var *assignable(fz_kernel *k)
{
    return &k->vars[rnd(k, (unsigned)k->ndeclared)];
}

static const char *plain_assignment(fz_kernel *k, int depth)
{
    unsigned r = rnd(k, 10);
    if (r == 0 && k->narrays) {
        array *a = &k->arrays[rnd(k, (unsigned)k->narrays)];
        const char *write = fmt(k, "%s[(%s) & %uu] = %s;", a->name, uint_index(k, depth),
                                ARRAY_LEN - 1, expr(k, a->elem, depth));
        second_stream(k, 1);
        if (k->array_ptr && chance(k, 50))
            write = chosen_element(k, depth, expr(k, k->arrays[0].elem, depth));
        second_stream(k, 0);
        return write;
    }
    if (r == 1 && k->nfields) {
        field *f = &k->fields[rnd(k, (unsigned)k->nfields)];
        if (f->is_array)
            return fmt(k, "st.%s[(%s) & %uu] = %s;", f->name, uint_index(k, depth),
                       STRUCT_ARRAY_LEN - 1, expr(k, f->type, depth));
        return fmt(k, "st.%s = %s;", f->name, expr(k, f->type, depth));
    }
    var *v = assignable(k);
    if ((v->type == TY_UINT4 || v->type == TY_FLOAT4) && chance(k, 50)) {
        static const char *const parts[] = { "x", "y", "z", "w", "s3", "hi", "lo", "zx", "wy" };
        unsigned p = rnd(k, 9);
        ty scalar = v->type == TY_UINT4 ? TY_UINT : TY_FLOAT;
        if (p < 5)
            return fmt(k, "%s.%s = %s;", v->name, parts[p], expr(k, scalar, depth));
        const char *two = v->type == TY_UINT4 ? "uint2" : "float2";
        return fmt(k, "%s.%s = (%s)(%s, %s);", v->name, parts[p], two, expr(k, scalar, depth),
                   expr(k, scalar, depth));
    }
    return fmt(k, "%s = %s;", v->name, expr(k, v->type, depth));
}

static const char *local_linear_id(void)
{
    return "fz_lid";
}

/* An assignment; in a kernel with doubles sometimes (on the second stream) of one. */
static const char *gen_assignment(fz_kernel *k, int depth)
{
    const char *a = plain_assignment(k, depth);
    if (k->doubles && !k->second) {
        second_stream(k, 1);
        if (chance(k, 20)) {
            unsigned v = rnd(k, (unsigned)k->doubles);
            a = fmt(k, "vd%u = %s;", v, expr(k, TY_DOUBLE, depth));
        }
        second_stream(k, 0);
    }
    return a;
}

static stmt *gen_local_exchange(fz_kernel *k)
{
    k->uses_local = 1;
    var *v = assignable(k);
    unsigned offset = rnd(k, (unsigned)k->local_total + 3);
    const char *read = fmt(k, "fz_lm[(%s + %uu) %% %uu]", local_linear_id(), offset,
                           (unsigned)k->local_total);
    if (chance(k, 30))
        read = fmt(k, "fz_lm[%s ^ %uu]", local_linear_id(), 0u);  /* its own slot */
    return new_stmt(k,
                    fmt(k, "fz_lm[%s] = %s;\nbarrier(CLK_LOCAL_MEM_FENCE);\n%s = %s;\n"
                           "barrier(CLK_LOCAL_MEM_FENCE);",
                        local_linear_id(), expr(k, TY_UINT, 2), v->name,
                        convert(k, read, TY_UINT, v->type)),
                    NULL, NULL);
}

static stmt *gen_local_atomics(fz_kernel *k)
{
    static const char *const ops[] = { "atomic_add", "atomic_or", "atomic_max", "atomic_xor",
                                       "atomic_min", "atomic_and" };
    k->uses_local_atomic = 1;
    sbuf sb = { 0 };
    sb_printf(&sb, "if (%s == 0u) {", local_linear_id());
    for (int i = 0; i < 6; i++)
        sb_printf(&sb, " fz_la[%d] = 0x%xu;", i, (unsigned)interesting_bits(k, 32));
    sb_printf(&sb, " }\nbarrier(CLK_LOCAL_MEM_FENCE);\n");
    unsigned n = 1 + rnd(k, 3);
    for (unsigned i = 0; i < n; i++) {
        unsigned slot = rnd(k, 6);
        sb_printf(&sb, "%s(&fz_la[%u], %s);\n", ops[slot], slot, expr(k, TY_UINT, 2));
    }
    var *v = assignable(k);
    sb_printf(&sb, "barrier(CLK_LOCAL_MEM_FENCE);\n%s = %s;\nbarrier(CLK_LOCAL_MEM_FENCE);",
              v->name, convert(k, fmt(k, "fz_la[%u]", rnd(k, 6)), TY_UINT, v->type));
    const char *text = fmt(k, "%s", sb.text);
    free(sb.text);
    return new_stmt(k, text, NULL, NULL);
}

/* Words of `out` passed between the group's work-items through global memory: each
 * stores its own word (or one work-item stores one the whole group reads, or the
 * group's word of `res` after the atomics' words), a barrier
 * with CLK_GLOBAL_MEM_FENCE, loads of other work-items' words (fz_peer: the word of
 * the group's work-item of a local linear id), and a barrier again before anyone
 * stores there anew; half the time in a loop of its own that stores new values each
 * time, over lines the loads of the previous round (and of other groups) opened. Each
 * word is its work-item's, which stores its hash there at the end, so the groups
 * never touch each other's words. */
static stmt *gen_global_exchange(fz_kernel *k)
{
    var *v = assignable(k);
    unsigned n = (unsigned)k->local_total;
    int rounds = chance(k, 50) ? 2 + (int)rnd(k, 3) : 0;
    const char *value = expr(k, TY_UINT, 2);
    if (rounds)
        value = fmt(k, "(%s) + (uint)fz_r * 0x9e3779b9u", value);
    const char *store, *read;
    const fz_shape *sh = &k->shape;
    size_t groups = sh->global[0] / sh->local[0] * (sh->global[1] / sh->local[1]) *
                    (sh->global[2] / sh->local[2]);
    if (groups <= FZ_GROUP_WORDS && chance(k, 40)) {
        /* the group's word of res: the groups' words share memory lines */
        store = fmt(k, "if (fz_lid == %uu)\n    res[%uu + fz_group()] = %s;", rnd(k, n),
                    (unsigned)FZ_RESULT_WORDS, value);
        read = fmt(k, "res[%uu + fz_group()]", (unsigned)FZ_RESULT_WORDS);
    } else if (chance(k, 40)) {
        unsigned writer = rnd(k, n);
        store = fmt(k, "if (fz_lid == %uu)\n    out[fz_gid] = %s;", writer, value);
        read = fmt(k, "out[fz_peer(%uu)]", writer);
    } else {
        store = fmt(k, "out[fz_gid] = %s;", value);
        read = fmt(k, "out[fz_peer((fz_lid + %uu) %% %uu)]", rnd(k, n + 3), n);
    }
    const char *text;
    if (rounds) {
        const char *inner = store;
        if (strchr(store, '\n')) /* the single writer's if: its store one level deeper */
            inner = fmt(k, "%.*s\n            %s", (int)strcspn(store, "\n"), store,
                        strchr(store, '\n') + 5);
        text = fmt(k, "{\n    uint fz_x = 0u;\n    for (int fz_r = 0; fz_r < %d; fz_r++) {\n"
                      "        %s\n        barrier(CLK_GLOBAL_MEM_FENCE);\n"
                      "        fz_x = fz_x * 31u + %s;\n        barrier(CLK_GLOBAL_MEM_FENCE);\n"
                      "    }\n    %s = %s;\n}",
                   rounds, inner, read, v->name, convert(k, "fz_x", TY_UINT, v->type));
    } else {
        text = fmt(k, "%s\nbarrier(CLK_GLOBAL_MEM_FENCE);\n%s = %s;\n"
                      "barrier(CLK_GLOBAL_MEM_FENCE);",
                   store, v->name, convert(k, read, TY_UINT, v->type));
    }
    return new_stmt(k, text, NULL, NULL);
}

/* A work-group function through the FZ_WG macros of the prelude: the built-in on
 * clhls, a plain reference implementation (__local memory and barriers) on a side
 * built with -DFZ_REFERENCE (PoCL 3.1 has none of these built-ins). */
static stmt *gen_collective(fz_kernel *k)
{
    static const ty int_types[] = { TY_INT, TY_UINT, TY_LONG, TY_ULONG };
    k->uses_collective = 1;
    var *v = assignable(k);
    ty t = int_types[rnd(k, has(k, FZ_LONG) ? 4 : 2)];
    unsigned r = rnd(k, 8);
    const char *call;
    if (r < 3) {
        /* add only on unsigned values: a signed sum may overflow */
        static const char *const fns[] = { "reduce_add", "scan_inclusive_add", "scan_exclusive_add" };
        t = t == TY_INT ? TY_UINT : t == TY_LONG ? TY_ULONG : t;
        call = fmt(k, "FZ_WG(%s, %s, %s)", fns[r], ty_name[t], expr(k, t, 2));
    } else if (r < 6) {
        static const char *const fns[] = { "reduce_min", "reduce_max", "scan_inclusive_min",
                                           "scan_exclusive_max", "scan_inclusive_max",
                                           "scan_exclusive_min" };
        call = fmt(k, "FZ_WG(%s, %s, %s)", fns[rnd(k, 6)], ty_name[t], expr(k, t, 2));
    } else if (r == 6) {
        const fz_shape *s = &k->shape;
        if (s->dims == 1)
            call = fmt(k, "FZ_WG_BROADCAST1(%s, %s, %u)", ty_name[t], expr(k, t, 2),
                       rnd(k, (unsigned)s->local[0]));
        else if (s->dims == 2)
            call = fmt(k, "FZ_WG_BROADCAST2(%s, %s, %u, %u)", ty_name[t], expr(k, t, 2),
                       rnd(k, (unsigned)s->local[0]), rnd(k, (unsigned)s->local[1]));
        else
            call = fmt(k, "FZ_WG_BROADCAST3(%s, %s, %u, %u, %u)", ty_name[t], expr(k, t, 2),
                       rnd(k, (unsigned)s->local[0]), rnd(k, (unsigned)s->local[1]),
                       rnd(k, (unsigned)s->local[2]));
    } else {
        t = TY_INT;
        call = fmt(k, "FZ_WG(%s, int, %s)", rnd(k, 2) ? "any" : "all", condition(k, 1));
    }
    return new_stmt(k, fmt(k, "%s = %s;", v->name, convert(k, call, t, v->type)), NULL, NULL);
}

static stmt *gen_atomic(fz_kernel *k)
{
    /* each result word is only ever combined by one commutative family */
    unsigned slot = rnd(k, FZ_RESULT_WORDS);
    const char *arg = expr(k, TY_UINT, 2);
    const char *prefix = rnd(k, 2) ? "atomic" : "atom";
    switch (slot / 2) {
    case 0:
    case 1: {
        static const char *const fam[] = { "add", "sub", "inc", "dec" };
        unsigned f = rnd(k, 4);
        if (f >= 2)
            return new_stmt(k, fmt(k, "%s_%s(&res[%u]);", prefix, fam[f], slot), NULL, NULL);
        return new_stmt(k, fmt(k, "%s_%s(&res[%u], %s);", prefix, fam[f], slot, arg), NULL, NULL);
    }
    case 2: return new_stmt(k, fmt(k, "%s_or(&res[%u], %s);", prefix, slot, arg), NULL, NULL);
    case 3: return new_stmt(k, fmt(k, "%s_xor(&res[%u], %s);", prefix, slot, arg), NULL, NULL);
    case 4: return new_stmt(k, fmt(k, "%s_and(&res[%u], %s);", prefix, slot, arg), NULL, NULL);
    case 5: return new_stmt(k, fmt(k, "%s_min(&res[%u], %s);", prefix, slot, arg), NULL, NULL);
    case 6: return new_stmt(k, fmt(k, "%s_max(&res[%u], %s);", prefix, slot, arg), NULL, NULL);
    default:
        return new_stmt(k, fmt(k, "%s_%s((__global int *)&res[%u], %s);", prefix,
                               slot == 14 ? "min" : "max", slot, expr(k, TY_INT, 2)),
                        NULL, NULL);
    }
}

static void push_counter(fz_kernel *k, const char *name, ty t)
{
    if (k->nvars < MAX_VARS)
        k->vars[k->nvars++] = (var){ name, t, 1 };
}

static stmt *gen_stmt(fz_kernel *k, ctx c)
{
    k->budget--;
    if (c.uniform && has(k, FZ_GLOBAL_EXCHANGE)) {
        third_stream(k, 1);
        stmt *s = chance(k, 8) ? gen_global_exchange(k) : NULL;
        third_stream(k, 0);
        if (s) {
            s->branch_barrier = c.depth > 0;
            return s;
        }
    }
    int nest_ok = c.depth < 3 && k->budget > 2;
    for (;;) {
        unsigned r = rnd(k, 32);
        if (r < 12)
            return new_stmt(k, gen_assignment(k, 1 + (int)rnd(k, 2)), NULL, NULL);
        if (r < 16 && has(k, FZ_BRANCH) && nest_ok) {
            ctx inner = c;
            inner.depth++;
            stmt *s;
            if (c.uniform && chance(k, 30)) {   /* a condition the whole group shares */
                s = new_stmt(k, fmt(k, "if ((get_group_id(%u) & 1u) == %uu) {", rnd(k, c.uniform ? k->shape.dims : 1),
                                    rnd(k, 2)), "} else {", "}");
            } else {
                inner.uniform = 0;
                s = new_stmt(k, fmt(k, "if %s {", condition(k, 2)), "} else {", "}");
            }
            gen_block(k, s, 0, 1 + (int)rnd(k, 3), inner);
            if (chance(k, 50))
                gen_block(k, s, 1, 1 + (int)rnd(k, 2), inner);
            else
                s->mid = NULL;
            return s;
        }
        if (r < 20 && has(k, FZ_LOOP) && nest_ok && c.loops < 3) {
            ctx inner = c;
            inner.depth++;
            inner.loops++;
            const char *counter = fmt(k, "i%d", k->counters++);
            stmt *s;
            unsigned kind = rnd(k, 4);
            if (kind == 0 || kind == 1) {   /* constant trip count */
                s = new_stmt(k, fmt(k, "for (int %s = 0; %s < %u; %s++) {", counter, counter,
                                    1 + rnd(k, 4), counter), NULL, "}");
                inner.breakable = !c.uniform;   /* a uniform loop may hold barriers */
                push_counter(k, counter, TY_INT);
            } else if (kind == 2) {   /* data-dependent trip count */
                inner.uniform = 0;
                inner.breakable = 1;
                s = new_stmt(k, fmt(k, "for (uint %s = 0u; %s < (%s & 3u); %s++) {", counter,
                                    counter, convert(k, expr(k, TY_UINT, 1), TY_UINT, TY_UINT),
                                    counter), NULL, "}");
                push_counter(k, counter, TY_UINT);
            } else {   /* while / do with a bound */
                inner.uniform = 0;
                inner.breakable = 1;
                unsigned bound = 1 + rnd(k, 4);
                if (rnd(k, 2))
                    s = new_stmt(k, fmt(k, "{ uint %s = 0u; while (%s < %uu && %s) { %s++;", counter,
                                        counter, bound, condition(k, 1), counter), NULL, "} }");
                else
                    s = new_stmt(k, fmt(k, "{ uint %s = 0u; do { %s++;", counter, counter), NULL,
                                 fmt(k, "} while (%s < %uu && %s); }", counter, bound,
                                     condition(k, 1)));
                push_counter(k, counter, TY_UINT);
            }
            gen_block(k, s, 0, 1 + (int)rnd(k, 3), inner);
            k->nvars--;
            return s;
        }
        if (r < 21 && has(k, FZ_SWITCH) && nest_ok) {
            ctx inner = c;
            inner.depth++;
            inner.uniform = 0;
            stmt *s = new_stmt(k, fmt(k, "switch (%s & 3u) {", convert(k, expr(k, TY_UINT, 2),
                                                                          TY_UINT, TY_UINT)),
                               NULL, "}");
            unsigned cases = 1 + rnd(k, 3);
            for (unsigned i = 0; i < cases; i++) {
                int fall = chance(k, 30);
                stmt *cs = new_stmt(k, i + 1 == cases && chance(k, 50) ? "default: {"
                                                                      : fmt(k, "case %u: {", i),
                                    NULL, fall ? "}" : "} break;");
                cs->removable = 0;
                add_child(k, s, cs, 0);
                gen_block(k, cs, 0, 1 + (int)rnd(k, 2), inner);
            }
            return s;
        }
        if (r < 23 && has(k, FZ_BREAK) && c.breakable)
            return new_stmt(k, fmt(k, "if %s %s;", condition(k, 1), rnd(k, 2) ? "break" : "continue"),
                            NULL, NULL);
        if (r < 26 && has(k, FZ_ATOMIC))
            return gen_atomic(k);
        stmt *barrier = NULL;
        if (r < 28 && has(k, FZ_LOCAL) && c.uniform)
            barrier = gen_local_exchange(k);
        else if (r < 29 && has(k, FZ_LOCAL_ATOMIC) && c.uniform)
            barrier = gen_local_atomics(k);
        else if (r < 31 && k->cl20 && c.uniform)
            barrier = gen_collective(k);
        if (barrier) {
            barrier->branch_barrier = c.depth > 0;
            return barrier;
        }
    }
}

static void gen_block(fz_kernel *k, stmt *parent, int alt, int count, ctx c)
{
    for (int i = 0; i < count && k->budget > 0; i++)
        add_child(k, parent, gen_stmt(k, c), alt);
}

/* ---- the NDRange ---- */

static void gen_shape(fz_kernel *k)
{
    static const size_t one_d[] = { 1, 2, 3, 4, 7, 8, 16, 32, 64, 100, 128, 256 };
    static const size_t small[] = { 1, 2, 3, 4, 5, 8 };
    fz_shape *s = &k->shape;
    s->dims = has(k, FZ_MULTIDIM) ? 1 + rnd(k, 3) : 1;
    for (unsigned d = 0; d < 3; d++)
        s->global[d] = s->local[d] = 1;
    if (s->dims == 1) {
        s->local[0] = one_d[rnd(k, sizeof one_d / sizeof one_d[0])];
        s->global[0] = s->local[0] * (1 + rnd(k, s->local[0] >= 128 ? 2 : 4));
    } else {
        for (unsigned d = 0; d < s->dims; d++) {
            s->local[d] = small[rnd(k, sizeof small / sizeof small[0])];
            s->global[d] = s->local[d] * (1 + rnd(k, 3));
        }
        if (s->dims == 2 && chance(k, 30)) {
            s->local[0] = 16;
            s->global[0] = 32;
        }
    }
    k->local_total = s->local[0] * s->local[1] * s->local[2];
}

/* ---- the whole kernel ---- */

static void number(fz_kernel *k, stmt *s)
{
    s->id = k->nstmts++;
    for (int i = 0; i < s->nbody; i++)
        number(k, s->body[i]);
    for (int i = 0; i < s->nalt; i++)
        number(k, s->alt[i]);
}

static void fill_index(fz_kernel *k, stmt *s)
{
    k->by_id[s->id] = s;
    for (int i = 0; i < s->nbody; i++)
        fill_index(k, s->body[i]);
    for (int i = 0; i < s->nalt; i++)
        fill_index(k, s->alt[i]);
}

static ty random_scalar(fz_kernel *k)
{
    for (;;) {
        ty t = (ty)rnd(k, 9);
        if (t == TY_FLOAT && !has(k, FZ_FLOAT))
            continue;
        if ((t == TY_UINT4 || t == TY_FLOAT4))
            continue;
        if (ty_is_64(t) && !has(k, FZ_LONG))
            continue;
        if ((t == TY_USHORT || t == TY_UCHAR) && !has(k, FZ_NARROW))
            continue;
        return t;
    }
}

fz_kernel *fz_generate(uint64_t seed, unsigned features)
{
    fz_kernel *k = xmalloc(sizeof *k);
    memset(k, 0, sizeof *k);
    k->seed = seed;
    k->rng = seed * 0x2545F4914F6CDD1Dull + 1;
    k->rng2 = ~seed * 0x9E3779B97F4A7C15ull;
    k->rng3 = seed * 0xD1342543DE82EF95ull + 0x1234567u;
    k->features = features;
    snprintf(k->name, sizeof k->name, "k_%llu", (unsigned long long)seed);
    gen_shape(k);
    k->reqd_wg = has(k, FZ_REQD_WG) && chance(k, 30);
    /* OpenCL C 2.0 for the work-group functions; vload4 then takes a generic pointer,
     * which neither PoCL 3.1 nor clhls builds (see repro/), so only 1.2 kernels use it */
    k->cl20 = has(k, FZ_COLLECTIVE) && chance(k, 50);

    /* the variables */
    int nscalars = 3 + (int)rnd(k, 5);
    k->vars[k->nvars++] = (var){ "v0", TY_UINT, 0 };
    k->vars[k->nvars++] = (var){ "v1", TY_INT, 0 };
    for (int i = 2; i < nscalars; i++)
        k->vars[k->nvars++] = (var){ fmt(k, "v%d", i), random_scalar(k), 0 };
    if (has(k, FZ_VECTOR)) {
        k->vars[k->nvars++] = (var){ "vu", TY_UINT4, 0 };
        if (has(k, FZ_FLOAT) && chance(k, 60))
            k->vars[k->nvars++] = (var){ "vf", TY_FLOAT4, 0 };
    }
    k->ndeclared = k->nvars;
    if (has(k, FZ_ARRAY)) {
        int n = 1 + (int)rnd(k, 2);
        for (int i = 0; i < n; i++) {
            ty elem = random_scalar(k);
            k->arrays[k->narrays++] = (array){ fmt(k, "a%d", i), elem };
        }
    }
    second_stream(k, 1);
    if (has(k, FZ_ARRAY_PTR) && k->narrays == 2 && chance(k, 60)) {
        k->arrays[1].elem = k->arrays[0].elem;
        k->array_ptr = 1;
    }
    if (has(k, FZ_DOUBLE) && chance(k, 50))
        k->doubles = 1 + (int)rnd(k, 2);
    second_stream(k, 0);
    if (has(k, FZ_STRUCT) && chance(k, 70)) {
        k->nfields = 2 + (int)rnd(k, 3);
        for (int i = 0; i < k->nfields; i++)
            k->fields[i] = (field){ fmt(k, "f%d", i), random_scalar(k), 0 };
        if (has(k, FZ_STRUCT_ARRAY) && chance(k, 50))
            k->fields[k->nfields - 1].is_array = 1;
    }

    /* the statements */
    k->top = new_stmt(k, NULL, NULL, NULL);
    k->top->removable = 0;
    k->budget = 4 + (int)rnd(k, 8);   /* small kernels: the hardware build is the cost */
    ctx c = { 0, 1, 0, 0 };
    while (k->budget > 0)
        add_child(k, k->top, gen_stmt(k, c), 0);
    number(k, k->top);
    k->by_id = arena_alloc(&k->arena, sizeof(stmt *) * (size_t)k->nstmts);
    fill_index(k, k->top);
    return k;
}

void fz_kernel_free(fz_kernel *k)
{
    if (!k)
        return;
    arena_free(k->arena);
    free(k);
}

const char *fz_kernel_name(const fz_kernel *k) { return k->name; }
uint64_t fz_kernel_seed(const fz_kernel *k) { return k->seed; }
const fz_shape *fz_kernel_shape(const fz_kernel *k) { return &k->shape; }
int fz_kernel_needs_cl20(const fz_kernel *k) { return k->cl20; }

int fz_kernel_has_struct_array(const fz_kernel *k)
{
    for (int i = 0; i < k->nfields; i++)
        if (k->fields[i].is_array)
            return 1;
    return 0;
}
int fz_kernel_has_branch_barrier(const fz_kernel *k)
{
    for (int i = 0; i < k->nstmts; i++)
        if (k->by_id[i]->branch_barrier && fz_stmt_present(k, i))
            return 1;
    return 0;
}

int fz_stmt_count(const fz_kernel *k) { return k->nstmts; }
int fz_stmt_removable(const fz_kernel *k, int i) { return k->by_id[i]->removable; }
int fz_stmt_removed(const fz_kernel *k, int i) { return k->by_id[i]->removed; }
void fz_stmt_set_removed(fz_kernel *k, int i, int removed) { k->by_id[i]->removed = removed; }

int fz_stmt_present(const fz_kernel *k, int i)
{
    for (const stmt *s = k->by_id[i]; s; s = s->parent)
        if (s->removed)
            return 0;
    return 1;
}

/* ---- printing ---- */

static void indent(sbuf *sb, int level)
{
    sb_printf(sb, "%*s", 4 * level, "");
}

/* Prints text (possibly several lines) at an indentation level. */
static void print_lines(sbuf *sb, const char *text, int level)
{
    const char *p = text;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        indent(sb, level);
        sb_printf(sb, "%.*s\n", (int)n, p);
        p += n + (nl ? 1 : 0);
    }
}

static void print_stmt(sbuf *sb, const stmt *s, int level)
{
    if (s->removed)
        return;
    if (s->head)
        print_lines(sb, s->head, level);
    for (int i = 0; i < s->nbody; i++)
        print_stmt(sb, s->body[i], level + 1);
    if (s->mid) {
        print_lines(sb, s->mid, level);
        for (int i = 0; i < s->nalt; i++)
            print_stmt(sb, s->alt[i], level + 1);
    }
    if (s->tail)
        print_lines(sb, s->tail, level);
}

static const char *init_value(fz_kernel *k, ty t, unsigned salt)
{
    const char *word = fmt(k, "in[(fz_gid * %uu + %uu) & %uu]", 2 * salt + 1, 7 * salt + 3,
                           FZ_INPUT_WORDS - 1);
    switch (t) {
    case TY_FLOAT: return fmt(k, "fz_f(as_float(%s))", word);
    case TY_UINT4: return vector_load(k, fmt(k, "fz_gid + %uu", salt));
    case TY_FLOAT4: return fmt(k, "fz_f4(as_float4(%s))", vector_load(k, fmt(k, "fz_gid + %uu", salt)));
    case TY_LONG:
    case TY_ULONG:
        return convert(k, fmt(k, "((ulong)%s << 32 | (ulong)in[(fz_gid + %uu) & %uu])", word,
                              salt * 5, FZ_INPUT_WORDS - 1), TY_ULONG, t);
    default: return convert(k, word, TY_UINT, t);
    }
}

/* Statement that hashes a value of type t into fz_h. */
static void print_hash(fz_kernel *k, sbuf *sb, const char *e, ty t)
{
    switch (t) {
    case TY_FLOAT: sb_printf(sb, "    fz_h = fz_mix(fz_h, as_uint(%s));\n", e); break;
    case TY_LONG:
    case TY_ULONG:
        sb_printf(sb, "    fz_h = fz_mix(fz_h, (uint)(%s));\n", e);
        sb_printf(sb, "    fz_h = fz_mix(fz_h, (uint)((ulong)(%s) >> 32));\n", e);
        break;
    case TY_UINT4:
    case TY_FLOAT4:
        for (int i = 0; i < 4; i++)
            sb_printf(sb, "    fz_h = fz_mix(fz_h, as_uint((%s).s%d));\n", e, i);
        break;
    case TY_DOUBLE:
        sb_printf(sb, "    fz_h = fz_mix(fz_h, (uint)as_ulong(%s));\n", e);
        sb_printf(sb, "    fz_h = fz_mix(fz_h, (uint)(as_ulong(%s) >> 32));\n", e);
        break;
    default: sb_printf(sb, "    fz_h = fz_mix(fz_h, (uint)(%s));\n", e); break;
    }
    (void)k;
}

char *fz_kernel_text(const fz_kernel *kc)
{
    fz_kernel *k = (fz_kernel *)kc;   /* the printing only draws on the arena */
    uint64_t saved_rng = k->rng;
    k->rng = k->seed ^ 0x5151;        /* the same text on every call */
    sbuf sb = { 0 };
    const fz_shape *s = &k->shape;
    if (k->nfields) {
        sb_printf(&sb, "struct s_%s {\n", k->name);
        for (int i = 0; i < k->nfields; i++) {
            if (k->fields[i].is_array)
                sb_printf(&sb, "    %s %s[%d];\n", ty_name[k->fields[i].type], k->fields[i].name,
                          STRUCT_ARRAY_LEN);
            else
                sb_printf(&sb, "    %s %s;\n", ty_name[k->fields[i].type], k->fields[i].name);
        }
        sb_printf(&sb, "};\n");
    }
    sb_printf(&sb, "/* seed %llu: %uD NDRange, global %zu x %zu x %zu, local %zu x %zu x %zu%s */\n",
              (unsigned long long)k->seed, s->dims, s->global[0], s->global[1], s->global[2],
              s->local[0], s->local[1], s->local[2],
              fz_kernel_has_branch_barrier(k) ? "; barriers in a group-uniform branch or loop"
                                              : "");
    sb_printf(&sb, "__kernel ");
    if (k->reqd_wg)
        sb_printf(&sb, "__attribute__((reqd_work_group_size(%zu, %zu, %zu))) ", s->local[0],
                  s->local[1], s->local[2]);
    sb_printf(&sb, "void %s(__global uint *restrict out, __global const uint *restrict in, "
                   "__global uint *res)\n{\n", k->name);
    sb_printf(&sb, "    uint fz_gid = (uint)(get_global_id(0) + get_global_size(0) * "
                   "(get_global_id(1) + get_global_size(1) * get_global_id(2)));\n");
    sb_printf(&sb, "    uint fz_lid = (uint)(get_local_id(0) + get_local_size(0) * "
                   "(get_local_id(1) + get_local_size(1) * get_local_id(2)));\n");
    if (k->uses_local)
        sb_printf(&sb, "    __local uint fz_lm[%zu];\n", k->local_total);
    if (k->uses_local_atomic)
        sb_printf(&sb, "    __local uint fz_la[6];\n");
    if (k->uses_collective)
        sb_printf(&sb, "    FZ_WG_SCRATCH(%zu);\n", k->local_total);
    for (int i = 0; i < k->ndeclared; i++)
        sb_printf(&sb, "    %s %s = %s;\n", ty_name[k->vars[i].type], k->vars[i].name,
                  init_value(k, k->vars[i].type, (unsigned)i));
    if (k->doubles)   /* any bits but a NaN's */
        sb_printf(&sb, "    double vd0 = fz_d(as_double(((ulong)in[(fz_gid * 5u + 1u) & %uu] << 32)"
                       " | in[(fz_gid * 11u + 2u) & %uu]));\n", FZ_INPUT_WORDS - 1,
                  FZ_INPUT_WORDS - 1);
    if (k->doubles > 1)   /* a moderate value */
        sb_printf(&sb, "    double vd1 = convert_double(as_int(in[(fz_gid * 7u + 3u) & %uu]))"
                       " * 0x1p-12;\n", FZ_INPUT_WORDS - 1);
    for (int i = 0; i < k->narrays; i++) {
        array *a = &k->arrays[i];
        sb_printf(&sb, "    %s %s[%d];\n", ty_name[a->elem], a->name, ARRAY_LEN);
        sb_printf(&sb, "    for (int j = 0; j < %d; j++)\n        %s[j] = %s;\n", ARRAY_LEN, a->name,
                  convert(k, fmt(k, "in[(fz_gid * 3u + (uint)j * %uu) & %uu]", 5u + 2u * (unsigned)i,
                                 FZ_INPUT_WORDS - 1), TY_UINT, a->elem));
        if (a->elem == TY_FLOAT)   /* as_float would bring NaNs and denormals */
            sb_printf(&sb, "    for (int j = 0; j < %d; j++)\n        %s[j] = fz_f(%s[j] * 0x1p-20f);\n",
                      ARRAY_LEN, a->name, a->name);
    }
    if (k->array_ptr)
        sb_printf(&sb, "    %s *fz_p = a0;\n", ty_name[k->arrays[0].elem]);
    if (k->nfields) {
        sb_printf(&sb, "    struct s_%s st;\n", k->name);
        for (int i = 0; i < k->nfields; i++) {
            field *f = &k->fields[i];
            if (f->is_array)
                sb_printf(&sb, "    for (int j = 0; j < %d; j++)\n        st.%s[j] = %s;\n",
                          STRUCT_ARRAY_LEN, f->name,
                          convert(k, fmt(k, "in[(fz_gid + (uint)j * 11u + %uu) & %uu]", (unsigned)i,
                                         FZ_INPUT_WORDS - 1), TY_UINT, f->type));
            else
                sb_printf(&sb, "    st.%s = %s;\n", f->name, init_value(k, f->type, 20u + (unsigned)i));
        }
    }
    for (int i = 0; i < k->top->nbody; i++)
        print_stmt(&sb, k->top->body[i], 1);
    sb_printf(&sb, "    uint fz_h = 0x811c9dc5u;\n");
    for (int i = 0; i < k->ndeclared; i++)
        print_hash(k, &sb, k->vars[i].name, k->vars[i].type);
    for (int i = 0; i < k->doubles; i++)
        print_hash(k, &sb, fmt(k, "vd%d", i), TY_DOUBLE);
    for (int i = 0; i < k->narrays; i++) {
        sb_printf(&sb, "    for (int j = 0; j < %d; j++) {\n    ", ARRAY_LEN);
        print_hash(k, &sb, fmt(k, "%s[j]", k->arrays[i].name), k->arrays[i].elem);
        sb_printf(&sb, "    }\n");
    }
    for (int i = 0; i < k->nfields; i++) {
        field *f = &k->fields[i];
        if (f->is_array) {
            sb_printf(&sb, "    for (int j = 0; j < %d; j++) {\n    ", STRUCT_ARRAY_LEN);
            print_hash(k, &sb, fmt(k, "st.%s[j]", f->name), f->type);
            sb_printf(&sb, "    }\n");
        } else {
            print_hash(k, &sb, fmt(k, "st.%s", f->name), f->type);
        }
    }
    sb_printf(&sb, "    out[fz_gid] = fz_h;\n}\n");
    k->rng = saved_rng;
    return sb.text;
}

const char *fz_prelude(void)
{
    return "#pragma OPENCL FP_CONTRACT OFF\n"
           "/* helpers of the clhls differential tests (tests/fuzz/gen.c) */\n"
           "uint fz_mix(uint h, uint v) { h = (h ^ v) * 0x01000193u; return h ^ (h >> 13); }\n"
           "/* NaN -> 1.5, |x| < 1e-30 (denormals, -0) -> +0: flushing devices agree */\n"
           "float fz_f(float x) { return isnan(x) ? 1.5f : (fabs(x) < 1e-30f ? 0.0f : x); }\n"
           "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
           "/* NaN -> 1.5, -0 -> +0 (doubles keep their subnormals on both sides) */\n"
           "double fz_d(double x) { return isnan(x) ? 1.5 : (x == 0.0 ? 0.0 : x); }\n"
           "float4 fz_f4(float4 x) { return select(select(x, (float4)(0.0f), "
           "fabs(x) < (float4)(1e-30f)), (float4)(1.5f), isnan(x)); }\n"
           "int fz_div_int(int a, int b) { return (b == 0 || (a == INT_MIN && b == -1)) ? a : a / b; }\n"
           "int fz_mod_int(int a, int b) { return (b == 0 || (a == INT_MIN && b == -1)) ? a : a % b; }\n"
           "long fz_div_long(long a, long b) { return (b == 0 || (a == LONG_MIN && b == -1)) ? a : a / b; }\n"
           "long fz_mod_long(long a, long b) { return (b == 0 || (a == LONG_MIN && b == -1)) ? a : a % b; }\n"
           "uint fz_div_uint(uint a, uint b) { return b == 0u ? a : a / b; }\n"
           "uint fz_mod_uint(uint a, uint b) { return b == 0u ? a : a % b; }\n"
           "/* the work-group's linear number */\n"
           "uint fz_group(void) {\n"
           "    return (uint)(get_group_id(0) + get_num_groups(0) * (get_group_id(1) +\n"
           "                  get_num_groups(1) * get_group_id(2)));\n"
           "}\n"
           "/* the word of `out` of the group's work-item of local linear id l */\n"
           "uint fz_peer(uint l) {\n"
           "    uint x = l % (uint)get_local_size(0), yz = l / (uint)get_local_size(0);\n"
           "    uint y = yz % (uint)get_local_size(1), z = yz / (uint)get_local_size(1);\n"
           "    size_t g0 = get_group_id(0) * get_local_size(0) + x + get_global_offset(0);\n"
           "    size_t g1 = get_group_id(1) * get_local_size(1) + y + get_global_offset(1);\n"
           "    size_t g2 = get_group_id(2) * get_local_size(2) + z + get_global_offset(2);\n"
           "    return (uint)(g0 + get_global_size(0) * (g1 + get_global_size(1) * g2));\n"
           "}\n"
           "ulong fz_div_ulong(ulong a, ulong b) { return b == 0UL ? a : a / b; }\n"
           "ulong fz_mod_ulong(ulong a, ulong b) { return b == 0UL ? a : a % b; }\n"
           "#ifdef FZ_REFERENCE\n"
           "/* signed abs_diff by its definition (PoCL 3.1 is wrong when the difference\n"
           " * exceeds the signed type's maximum, as abs_diff(2, INT_MIN)) */\n"
           "#define FZ_ABS_DIFF(x, y) fz_abs_diff(x, y)\n"
           "uint __attribute__((overloadable)) fz_abs_diff(int a, int b) "
           "{ return a > b ? (uint)a - (uint)b : (uint)b - (uint)a; }\n"
           "ulong __attribute__((overloadable)) fz_abs_diff(long a, long b) "
           "{ return a > b ? (ulong)a - (ulong)b : (ulong)b - (ulong)a; }\n"
           "/* the work-group functions by their definition, for a reference without them; every\n"
           " * loop runs over the whole group (PoCL 3.1 gives every work-item the last one's\n"
           " * scan when a loop after a barrier stops at the work-item's own local id) */\n"
           "#define FZ_WG_SCRATCH(n) __local ulong fz_wgs[n]\n"
           "#define FZ_WG(fn, T, x) fz_wg_##fn##_##T(fz_wgs, x)\n"
           "#define FZ_WG_BROADCAST1(T, x, a) fz_wg_broadcast_##T(fz_wgs, x, a)\n"
           "#define FZ_WG_BROADCAST2(T, x, a, b) fz_wg_broadcast_##T(fz_wgs, x, (a) + get_local_size(0) * (b))\n"
           "#define FZ_WG_BROADCAST3(T, x, a, b, c) fz_wg_broadcast_##T(fz_wgs, x, "
           "(a) + get_local_size(0) * ((b) + get_local_size(1) * (c)))\n"
           "uint fz_wg_lid(void) { return (uint)(get_local_id(0) + get_local_size(0) * "
           "(get_local_id(1) + get_local_size(1) * get_local_id(2))); }\n"
           "uint fz_wg_size(void) { return (uint)(get_local_size(0) * get_local_size(1) * get_local_size(2)); }\n"
           "void fz_wg_put(__local ulong *s, ulong x) { barrier(CLK_LOCAL_MEM_FENCE); "
           "s[fz_wg_lid()] = x; barrier(CLK_LOCAL_MEM_FENCE); }\n"
           "#define FZ_WG_FUNCS(T, FROM, MAXV, MINV) \\\n"
           "T fz_wg_reduce_add_##T(__local ulong *s, T x) { fz_wg_put(s, (ulong)x); T a = 0; "
           "for (uint i = 0; i < fz_wg_size(); i++) a += FROM(s[i]); return a; } \\\n"
           "T fz_wg_scan_inclusive_add_##T(__local ulong *s, T x) { fz_wg_put(s, (ulong)x); T a = 0; "
           "for (uint i = 0; i < fz_wg_size(); i++) a += i <= fz_wg_lid() ? FROM(s[i]) : (T)0; return a; } \\\n"
           "T fz_wg_scan_exclusive_add_##T(__local ulong *s, T x) { fz_wg_put(s, (ulong)x); T a = 0; "
           "for (uint i = 0; i < fz_wg_size(); i++) a += i < fz_wg_lid() ? FROM(s[i]) : (T)0; return a; } \\\n"
           "T fz_wg_reduce_min_##T(__local ulong *s, T x) { fz_wg_put(s, (ulong)x); T a = MAXV; "
           "for (uint i = 0; i < fz_wg_size(); i++) a = min(a, FROM(s[i])); return a; } \\\n"
           "T fz_wg_reduce_max_##T(__local ulong *s, T x) { fz_wg_put(s, (ulong)x); T a = MINV; "
           "for (uint i = 0; i < fz_wg_size(); i++) a = max(a, FROM(s[i])); return a; } \\\n"
           "T fz_wg_scan_inclusive_min_##T(__local ulong *s, T x) { fz_wg_put(s, (ulong)x); T a = MAXV; "
           "for (uint i = 0; i < fz_wg_size(); i++) a = i <= fz_wg_lid() ? min(a, FROM(s[i])) : a; return a; } \\\n"
           "T fz_wg_scan_inclusive_max_##T(__local ulong *s, T x) { fz_wg_put(s, (ulong)x); T a = MINV; "
           "for (uint i = 0; i < fz_wg_size(); i++) a = i <= fz_wg_lid() ? max(a, FROM(s[i])) : a; return a; } \\\n"
           "T fz_wg_scan_exclusive_min_##T(__local ulong *s, T x) { fz_wg_put(s, (ulong)x); T a = MAXV; "
           "for (uint i = 0; i < fz_wg_size(); i++) a = i < fz_wg_lid() ? min(a, FROM(s[i])) : a; return a; } \\\n"
           "T fz_wg_scan_exclusive_max_##T(__local ulong *s, T x) { fz_wg_put(s, (ulong)x); T a = MINV; "
           "for (uint i = 0; i < fz_wg_size(); i++) a = i < fz_wg_lid() ? max(a, FROM(s[i])) : a; return a; } \\\n"
           "T fz_wg_broadcast_##T(__local ulong *s, T x, size_t at) { fz_wg_put(s, (ulong)x); "
           "return FROM(s[at]); }\n"
           "#define FZ_FROM_INT(v) as_int((uint)(v))\n"
           "#define FZ_FROM_UINT(v) ((uint)(v))\n"
           "#define FZ_FROM_LONG(v) as_long(v)\n"
           "#define FZ_FROM_ULONG(v) (v)\n"
           "FZ_WG_FUNCS(int, FZ_FROM_INT, INT_MAX, INT_MIN)\n"
           "FZ_WG_FUNCS(uint, FZ_FROM_UINT, UINT_MAX, 0u)\n"
           "FZ_WG_FUNCS(long, FZ_FROM_LONG, LONG_MAX, LONG_MIN)\n"
           "FZ_WG_FUNCS(ulong, FZ_FROM_ULONG, ULONG_MAX, 0UL)\n"
           "int fz_wg_any_int(__local ulong *s, int p) { fz_wg_put(s, p != 0); int a = 0; "
           "for (uint i = 0; i < fz_wg_size(); i++) a |= (int)s[i]; return a; }\n"
           "int fz_wg_all_int(__local ulong *s, int p) { fz_wg_put(s, p != 0); int a = 1; "
           "for (uint i = 0; i < fz_wg_size(); i++) a &= (int)s[i]; return a; }\n"
           "#else\n"
           "#define FZ_ABS_DIFF(x, y) abs_diff(x, y)\n"
           "#define FZ_WG_SCRATCH(n)\n"
           "#define FZ_WG(fn, T, x) work_group_##fn(x)\n"
           "#define FZ_WG_BROADCAST1(T, x, a) work_group_broadcast(x, (size_t)(a))\n"
           "#define FZ_WG_BROADCAST2(T, x, a, b) work_group_broadcast(x, (size_t)(a), (size_t)(b))\n"
           "#define FZ_WG_BROADCAST3(T, x, a, b, c) work_group_broadcast(x, (size_t)(a), (size_t)(b), (size_t)(c))\n"
           "#endif\n";
}

/* ---- buffers ---- */

static uint32_t hash32(uint32_t x)
{
    x *= 0x9E3779B1u;
    x ^= x >> 16;
    x *= 0x85EBCA6Bu;
    x ^= x >> 13;
    return x;
}

uint32_t fz_input_word(uint32_t i)
{
    uint32_t h = hash32(i + 1);
    switch (i % 4) {
    case 1: return h & 15;                     /* small integers */
    case 2: {                                  /* floats of moderate size */
        float f = (float)((int32_t)(h & 0xffff) - 32768) / 64.0f;
        uint32_t bits;
        memcpy(&bits, &f, sizeof bits);
        return bits;
    }
    default: return h;
    }
}

uint32_t fz_result_init_word(uint32_t i)
{
    return i >= 8 && i < 10 ? 0xffffffffu : hash32(i + 5000) & 0x7fffffffu;
}

/* ---- features ---- */

static const struct {
    unsigned bit;       /* FZ_* */
    const char *name;   /* its name on the command line */
} feature_names[] = {
    { FZ_FLOAT, "float" }, { FZ_BRANCH, "branch" }, { FZ_LOOP, "loop" },
    { FZ_SWITCH, "switch" }, { FZ_BREAK, "break" }, { FZ_DIV, "div" },
    { FZ_BUILTIN, "builtin" }, { FZ_CONVERT, "convert" }, { FZ_ARRAY, "array" },
    { FZ_STRUCT, "struct" }, { FZ_VECTOR, "vector" }, { FZ_LONG, "long" },
    { FZ_NARROW, "narrow" }, { FZ_ATOMIC, "atomic" }, { FZ_LOCAL, "local" },
    { FZ_LOCAL_ATOMIC, "local-atomic" }, { FZ_COLLECTIVE, "collective" },
    { FZ_MULTIDIM, "multidim" }, { FZ_FMA, "fma" }, { FZ_REQD_WG, "reqd-wg" },
    { FZ_STRUCT_ARRAY, "struct-array" }, { FZ_ARRAY_PTR, "array-ptr" }, { FZ_DOUBLE, "double" },
    { FZ_GLOBAL_EXCHANGE, "global-exchange" },
};

const char *fz_feature_name(unsigned bit)
{
    for (size_t i = 0; i < sizeof feature_names / sizeof feature_names[0]; i++)
        if (feature_names[i].bit == bit)
            return feature_names[i].name;
    return NULL;
}

int fz_parse_features(const char *list, unsigned *mask, char *err, size_t errlen)
{
    *mask = 0;
    const char *p = list;
    while (*p) {
        size_t n = strcspn(p, ",");
        if (n == 3 && !strncmp(p, "all", 3)) {
            *mask |= FZ_ALL;
        } else if (n) {
            size_t i;
            for (i = 0; i < sizeof feature_names / sizeof feature_names[0]; i++)
                if (strlen(feature_names[i].name) == n && !strncmp(p, feature_names[i].name, n))
                    break;
            if (i == sizeof feature_names / sizeof feature_names[0]) {
                snprintf(err, errlen, "unknown feature '%.*s' (known: all", (int)n, p);
                for (i = 0; i < sizeof feature_names / sizeof feature_names[0]; i++)
                    snprintf(err + strlen(err), errlen - strlen(err), ", %s", feature_names[i].name);
                snprintf(err + strlen(err), errlen - strlen(err), ")");
                return -1;
            }
            *mask |= feature_names[i].bit;
        }
        p += n;
        if (*p == ',')
            p++;
    }
    return 0;
}
