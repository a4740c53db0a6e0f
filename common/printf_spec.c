/* The printf conversion specification parser shared by the compiler and the runtime
 * (common/printf_spec.h). */
#include "printf_spec.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

int hls_printf_parse_spec(const char *s, hls_printf_spec *sp)
{
    const char *p = s;
    memset(sp, 0, sizeof *sp);
    sp->width = sp->prec = -1;
    if (*p == '%')
        return 0;
    size_t nf = 0;
    while (*p && strchr("-+ #0", *p)) {
        if (nf + 1 < sizeof sp->flags && !strchr(sp->flags, *p))
            sp->flags[nf++] = *p;
        p++;
    }
    if (*p == '*') {
        sp->star_width = 1;
        p++;
    } else if (isdigit((unsigned char)*p)) {
        sp->width = (int)strtol(p, (char **)&p, 10);
    }
    if (*p == '.') {
        p++;
        if (*p == '*') {
            sp->star_prec = 1;
            p++;
        } else {
            sp->prec = isdigit((unsigned char)*p) ? (int)strtol(p, (char **)&p, 10) : 0;
        }
    }
    if (*p == 'v') {
        p++;
        char *end;
        unsigned long n = strtoul(p, &end, 10);
        if (end == p || (n != 2 && n != 3 && n != 4 && n != 8 && n != 16))
            return -1;
        sp->lanes = (unsigned)n;
        p = end;
    }
    if (p[0] == 'h' && (p[1] == 'h' || p[1] == 'l')) {
        sp->len[0] = p[0], sp->len[1] = p[1];
        p += 2;
    } else if (*p == 'h' || *p == 'l') {
        sp->len[0] = *p++;
    }
    if (!*p || !strchr("diouxXcsfFeEgGaAp", *p))
        return -1;
    sp->conv = *p;
    if (sp->lanes && strchr("csp", *p))
        return -1;
    return (int)(p - s + 1);
}
