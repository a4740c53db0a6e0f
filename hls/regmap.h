/* The register map of a kernel's control block (regmap.c): one table, from which
 * the metadata, the Verilog include and the documentation's table are written. */
#ifndef CLHLS_HLS_REGMAP_H
#define CLHLS_HLS_REGMAP_H

#include <stdio.h>

#include "ir.h"

/* What a field is for. */
typedef enum {
    HLS_REGF_CONTROL,   /* control and status */
    HLS_REGF_GEOMETRY,  /* NDRange geometry the runtime writes */
    HLS_REGF_COUNTER,   /* hardware counters the runtime reads */
    HLS_REGF_PROBES,    /* occupancy probes (named per kernel in the metadata) */
    HLS_REGF_ARGS,      /* the argument area */
} hls_reg_kind;

typedef struct hls_reg_field {
    const char *name;      /* metadata name; REG_<NAME> in Verilog */
    hls_reg_kind kind;     /* what it is for */
    unsigned offset;       /* first register inside the kernel's block */
    unsigned count;        /* registers (3 for per-dimension values, x first) */
    const char *access;    /* "R", "W" or "RW" for the host */
    const char *meaning;   /* one line for the documentation */
} hls_reg_field;

extern const hls_reg_field hls_regmap[];
extern const int hls_regmap_count;

/* The field called name, or NULL. */
const hls_reg_field *hls_regmap_find(const char *name);
/* rtl-templates/clhls_regmap.vh */
void hls_regmap_print_verilog(FILE *out);
/* The table of docs/architecture.md "Register map". */
void hls_regmap_print_markdown(FILE *out);

#endif
