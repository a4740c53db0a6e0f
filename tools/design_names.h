/* What a netlist name of a generated accelerator means in the kernel's terms (the
 * operation and source line behind an instance), from the build's report.json. */
#ifndef CLHLS_DESIGN_NAMES_H
#define CLHLS_DESIGN_NAMES_H

#include <cjson/cJSON.h>
#include <stddef.h>

/* Writes into out what the cell or net `name` (hierarchical, '.'-separated, as Yosys
 * and nextpnr print flattened names) implements, e.g. "global load unit at k.cl:5:19
 * in kernel vadd" or "work-item generator of kernel vadd". Returns 1 when the
 * description has a source location, 0 when it names a part of the design only. */
int design_describe(const cJSON *report, const char *name, char *out, size_t len);

#endif
