/* printf output of kernels (OpenCL C 1.2 section 6.12.13): reads a kernel's "printf"
 * metadata (formats with their record layouts, constant strings), and after an
 * NDRange formats the records the hardware left in the printf buffer and writes them
 * to stdout — each work-item's records in the order it made them, work-items in
 * order of global linear id — then flushes stdout. Each conversion is handed to the
 * host C library with its flags, width and precision; vectors print their lanes
 * separated by commas. A full buffer is reported once per NDRange on stderr. The
 * record format is in docs/architecture.md ("printf"). */
#define _GNU_SOURCE
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "rt.h"

static int get_num(const cJSON *obj, const char *key, uint64_t *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!cJSON_IsNumber(v) || v->valuedouble < 0 || v->valuedouble > 1e15)
        return -1;
    *out = (uint64_t)v->valuedouble;
    return 0;
}

void rt_printf_free(rt_printf_meta *m)
{
    if (!m)
        return;
    for (unsigned i = 0; i < m->nformats; i++) {
        rt_free(m->formats[i].format);
        rt_free(m->formats[i].args);
    }
    rt_free(m->formats);
    for (unsigned i = 0; i < m->nstrings; i++)
        rt_free(m->strings[i]);
    rt_free(m->strings);
    rt_free(m);
}

int rt_printf_load(const struct cJSON *jp, size_t arg_offset, rt_printf_meta **out,
                   char *err, size_t errlen)
{
    rt_printf_meta *m = rt_alloc(sizeof *m);
    const cJSON *fs = cJSON_GetObjectItemCaseSensitive(jp, "formats");
    const cJSON *ss = cJSON_GetObjectItemCaseSensitive(jp, "strings");
    uint64_t total = 0, header = 0;
    if (!m) {
        snprintf(err, errlen, "out of host memory");
        return -1;
    }
    m->arg_offset = arg_offset;
    if (get_num(jp, "buffer_bytes", &total) || get_num(jp, "header_bytes", &header) ||
        header < 8 || total <= header || !cJSON_IsArray(fs) || !cJSON_IsArray(ss))
        goto bad;
    m->buffer_bytes = (size_t)total;
    m->header_bytes = (size_t)header;
    int nf = cJSON_GetArraySize(fs), ns = cJSON_GetArraySize(ss);
    m->formats = rt_alloc((size_t)nf * sizeof *m->formats + 1);
    m->strings = rt_alloc((size_t)ns * sizeof *m->strings + 1);
    if (!m->formats || !m->strings)
        goto nomem;
    for (int i = 0; i < ns; i++) {
        const cJSON *s = cJSON_GetArrayItem(ss, i);
        if (!cJSON_IsString(s))
            goto bad;
        if (!(m->strings[m->nstrings] = rt_strdup(s->valuestring)))
            goto nomem;
        m->nstrings++;
    }
    for (int i = 0; i < nf; i++) {
        const cJSON *fj = cJSON_GetArrayItem(fs, i);
        rt_printf_format *f = &m->formats[m->nformats++];
        const cJSON *fmt = cJSON_GetObjectItemCaseSensitive(fj, "format");
        const cJSON *as = cJSON_GetObjectItemCaseSensitive(fj, "args");
        uint64_t bytes;
        if (!cJSON_IsString(fmt) || !cJSON_IsArray(as) || get_num(fj, "bytes", &bytes) ||
            bytes < 16 || bytes % 8 || bytes > total - header)
            goto bad;
        f->bytes = (size_t)bytes;
        int na = cJSON_GetArraySize(as);
        f->format = rt_strdup(fmt->valuestring);
        f->args = rt_alloc((size_t)na * sizeof *f->args + 1);
        if (!f->format || !f->args)
            goto nomem;
        for (int a = 0; a < na; a++) {
            const cJSON *aj = cJSON_GetArrayItem(as, a);
            const cJSON *kind = cJSON_GetObjectItemCaseSensitive(aj, "kind");
            uint64_t b, lanes, off;
            if (!cJSON_IsString(kind) || strlen(kind->valuestring) != 1 ||
                !strchr("ifps", kind->valuestring[0]) || get_num(aj, "bytes", &b) ||
                get_num(aj, "lanes", &lanes) || get_num(aj, "offset", &off) ||
                (b != 1 && b != 2 && b != 4 && b != 8) || !lanes || lanes > 16 ||
                off + b * lanes > bytes)
                goto bad;
            hls_printf_arg *pa = &f->args[f->nargs++];
            pa->kind = kind->valuestring[0];
            pa->bytes = (unsigned)b;
            pa->lanes = (unsigned)lanes;
            pa->offset = (unsigned)off;
        }
    }
    *out = m;
    return 0;
bad:
    snprintf(err, errlen, "bad printf description");
    rt_printf_free(m);
    return -1;
nomem:
    snprintf(err, errlen, "out of host memory");
    rt_printf_free(m);
    return -1;
}

static uint64_t get_le(const unsigned char *p, unsigned bytes)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < bytes; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

/* A half's value (IEEE 754 binary16). */
static double half_value(uint16_t h)
{
    int e = (h >> 10) & 31, m = h & 1023;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m + 1024, e - 25);
    return h & 0x8000 ? -v : v;
}

static double float_value(uint64_t bits, unsigned bytes)
{
    if (bytes == 8) {
        double d;
        memcpy(&d, &bits, 8);
        return d;
    }
    if (bytes == 4) {
        uint32_t u = (uint32_t)bits;
        float f;
        memcpy(&f, &u, 4);
        return f;
    }
    return half_value((uint16_t)bits);
}

static int64_t signed_value(uint64_t bits, unsigned bytes)
{
    if (bytes == 8)
        return (int64_t)bits;
    uint64_t sign = 1ull << (8 * bytes - 1);
    bits &= (sign << 1) - 1;
    return (int64_t)(bits ^ sign) - (int64_t)sign;
}

/* Prints one value (one lane) of a conversion. */
static void print_value(FILE *out, const hls_printf_spec *sp, int width, int prec, char kind,
                        uint64_t bits, unsigned bytes, const rt_printf_meta *m)
{
    char f[64];
    int n = snprintf(f, sizeof f, "%%%s", sp->flags);
    if (width >= 0)
        n += snprintf(f + n, sizeof f - (size_t)n, "%d", width);
    if (prec >= 0)
        n += snprintf(f + n, sizeof f - (size_t)n, ".%d", prec);
    char c = sp->conv;
    const char *len = sp->len;
    if (strchr("di", c)) {
        long long v = kind == 'f' ? (long long)float_value(bits, bytes)
                                  : (long long)signed_value(bits, bytes);
        if (!strcmp(len, "hh"))
            v = (signed char)v;
        else if (!strcmp(len, "h"))
            v = (short)v;
        else if (strcmp(len, "l") && bytes <= 4)
            v = (int)v;
        snprintf(f + n, sizeof f - (size_t)n, "ll%c", c);
        fprintf(out, f, v);
    } else if (strchr("ouxX", c)) {
        unsigned long long v = bytes == 8 ? bits : bits & ((1ull << (8 * bytes)) - 1);
        if (!strcmp(len, "hh"))
            v = (unsigned char)v;
        else if (!strcmp(len, "h"))
            v = (unsigned short)v;
        else if (strcmp(len, "l") && bytes <= 4)
            v = (unsigned)v;
        snprintf(f + n, sizeof f - (size_t)n, "ll%c", c);
        fprintf(out, f, v);
    } else if (c == 'c') {
        snprintf(f + n, sizeof f - (size_t)n, "c");
        fprintf(out, f, (int)(unsigned char)bits);
    } else if (c == 's') {
        const char *s = kind == 's' && bits < m->nstrings ? m->strings[bits] : "(bad string)";
        snprintf(f + n, sizeof f - (size_t)n, "s");
        fprintf(out, f, s);
    } else if (c == 'p') {
        snprintf(f + n, sizeof f - (size_t)n, "p");
        fprintf(out, f, (void *)(uintptr_t)bits);
    } else { /* f F e E g G a A */
        double v = kind == 'f' ? float_value(bits, bytes) : (double)signed_value(bits, bytes);
        snprintf(f + n, sizeof f - (size_t)n, "%c", c);
        fprintf(out, f, v);
    }
}

/* Formats one record. */
static void print_record(FILE *out, const rt_printf_meta *m, const rt_printf_format *fm,
                         const unsigned char *rec)
{
    unsigned next = 0;
    for (const char *p = fm->format; *p; p++) {
        if (*p != '%') {
            size_t run = strcspn(p, "%");
            fwrite(p, 1, run, out);
            p += run - 1;
            continue;
        }
        hls_printf_spec sp;
        int n = hls_printf_parse_spec(p + 1, &sp);
        if (n < 0) { /* not printable: the rest as it is */
            fputs(p, out);
            return;
        }
        if (n == 0) {
            fputc('%', out);
            p++;
            continue;
        }
        p += n;
        int width = sp.width, prec = sp.prec;
        unsigned need = 1u + (unsigned)sp.star_width + (unsigned)sp.star_prec;
        if (next + need > fm->nargs)
            return;
        if (sp.star_width) {
            const hls_printf_arg *a = &fm->args[next++];
            width = (int)signed_value(get_le(rec + a->offset, a->bytes), a->bytes);
            if (width < 0) { /* a negative width is the '-' flag */
                if (!strchr(sp.flags, '-'))
                    strncat(sp.flags, "-", sizeof sp.flags - strlen(sp.flags) - 1);
                width = -width;
            }
        }
        if (sp.star_prec) {
            const hls_printf_arg *a = &fm->args[next++];
            prec = (int)signed_value(get_le(rec + a->offset, a->bytes), a->bytes);
            if (prec < 0)
                prec = -1;
        }
        const hls_printf_arg *a = &fm->args[next++];
        for (unsigned l = 0; l < a->lanes; l++) {
            if (l)
                fputc(',', out);
            uint64_t bits = get_le(rec + a->offset + l * a->bytes, a->bytes);
            print_value(out, &sp, width, prec, a->kind, bits, a->bytes, m);
        }
    }
}

/* A record found in the buffer. */
typedef struct found {
    uint64_t linear;          /* the work-item's global linear id */
    size_t at;                /* byte offset in the buffer: its order within the work-item */
} found;

static int by_work_item(const void *a, const void *b)
{
    const found *x = a, *y = b;
    if (x->linear != y->linear)
        return x->linear < y->linear ? -1 : 1;
    return x->at < y->at ? -1 : x->at > y->at;
}

int rt_printf_output(const rt_printf_meta *m, const char *kernel, const unsigned char *data,
                     size_t len, uint64_t claimed, const uint64_t global[3],
                     const uint64_t offset[3])
{
    size_t max = 0;
    for (unsigned i = 0; i < m->nformats; i++)
        if (m->formats[i].bytes)
            max = max ? (m->formats[i].bytes < max ? m->formats[i].bytes : max)
                      : m->formats[i].bytes;
    size_t nrec = max ? len / max + 1 : 1;
    found *recs = rt_alloc(nrec * sizeof *recs);
    if (!recs)
        return -1;
    /* Records lie one after the other; the first that did not fit ends them (its
     * bytes and everything after it were never written: the buffer was zeroed). */
    size_t n = 0, at = 0;
    while (at + 16 <= len && n < nrec) {
        uint32_t id = (uint32_t)get_le(data + at, 4);
        if (!id || id > m->nformats || at + m->formats[id - 1].bytes > len)
            break;
        uint64_t lin = 0;
        for (int d = 2; d >= 0; d--) {
            uint32_t g = (uint32_t)get_le(data + at + 4 + 4 * (unsigned)d, 4);
            lin = lin * global[d] + (uint32_t)(g - (uint32_t)offset[d]);
        }
        recs[n++] = (found){lin, at};
        at += m->formats[id - 1].bytes;
    }
    qsort(recs, n, sizeof *recs, by_work_item);
    flockfile(stdout);
    for (size_t i = 0; i < n; i++) {
        uint32_t id = (uint32_t)get_le(data + recs[i].at, 4);
        print_record(stdout, m, &m->formats[id - 1], data + recs[i].at);
    }
    fflush(stdout);
    funlockfile(stdout);
    rt_free(recs);
    if (claimed > at)
        fprintf(stderr, "clhls: kernel '%s': the printf buffer (%zu bytes) is full: the output "
                "of later printf calls was dropped (printf returned -1)\n", kernel,
                m->buffer_bytes);
    return 0;
}
