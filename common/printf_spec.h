/* The OpenCL C printf conversion specification (section 6.12.13.2), parsed the same way
 * by the compiler (hls/printf.c: which values a record holds, and a build error for a
 * bad format) and by the runtime (host-runtime/printf.c: how to print them), with the
 * record layout both agree on (the buffer's: device_abi.h). In the base library
 * clhls_common, which clhls_hls and the ICD link (no LLVM). */
#ifndef CLHLS_COMMON_PRINTF_SPEC_H
#define CLHLS_COMMON_PRINTF_SPEC_H

/* One conversion specification, the text after a '%'. */
typedef struct hls_printf_spec {
    char flags[8];              /* "-+ #0" flags, each once */
    int width;                  /* -1 when none */
    int prec;                   /* -1 when none */
    int star_width, star_prec;  /* width or precision given by an int argument ('*') */
    unsigned lanes;             /* vector specifier vN, 0 without */
    char len[3];                /* length modifier: "", "hh", "h", "hl", "l" */
    char conv;                  /* d i o u x X c s f F e E g G a A p */
} hls_printf_spec;

/* Parses the specification at s (just after a '%'): returns its length up to and with
 * the conversion character, 0 for "%%", -1 when it is not valid OpenCL C (also a
 * vector of c, s or p). */
int hls_printf_parse_spec(const char *s, hls_printf_spec *sp);

/* One value of a printf record. */
typedef struct hls_printf_arg {
    char kind;                  /* 'i' integer, 'f' floating point, 'p' pointer, 's' string id */
    unsigned bytes;             /* bytes of one lane */
    unsigned lanes;             /* 1, or the lanes of a vector */
    unsigned offset;            /* byte offset in the record */
} hls_printf_arg;

#endif
