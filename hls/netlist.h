/* The emitter's netlist model: modules with ports, nets, instances, continuous assigns
 * and free-form blocks (an always block's text) that name the nets they drive; one
 * printer that writes a module as Verilog, and one check that every net and output
 * port has exactly one driver, that instances of modules of the same netlist and of
 * the Verilog templates connect each of their ports once, and that the widths of
 * direct net-to-port connections of netlist modules agree. Expressions stay Verilog
 * text; what an output drives must be a net or a slice of one (name[h:l], name[i],
 * name[b +: w]) so the check can count drivers.
 * Everything lives in the compilation's arena. */
#ifndef CLHLS_HLS_NETLIST_H
#define CLHLS_HLS_NETLIST_H

#include <stdio.h>

#include "util.h"

typedef enum {
    HLS_NL_IN,      /* an input port; an instance input */
    HLS_NL_OUT,     /* an output port driven continuously (output wire); an instance output */
    HLS_NL_OUT_REG, /* an output port assigned in a block (output reg); ports only */
} hls_nl_dir;

typedef struct hls_nl_netlist hls_nl_netlist;
typedef struct hls_nl_module hls_nl_module;
typedef struct hls_nl_instance hls_nl_instance;
typedef struct hls_nl_block hls_nl_block;

/* A netlist: the modules an instance may refer to by name (others are templates). */
hls_nl_netlist *hls_nl_netlist_new(arena *a);
/* A new module of the netlist (a name defined twice is a bug). */
hls_nl_module *hls_nl_module_new(hls_nl_netlist *nl, const char *name);
/* The module of the netlist called `name`, or NULL. */
hls_nl_module *hls_nl_module_find(const hls_nl_netlist *nl, const char *name);

/* One line of the comment above the module. */
void hls_nl_comment(hls_nl_module *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A Verilator warning waived for the whole module, with the reason (one comment line). */
void hls_nl_lint_off(hls_nl_module *m, const char *warning, const char *reason);

/* Declarations: ports in order, nets (wires), and regs (nets assigned in a block).
 * Widths are in bits (at least 1); comments may be NULL for nets and regs. A name
 * declared twice is a bug. */
void hls_nl_port(hls_nl_module *m, hls_nl_dir dir, const char *name, unsigned width,
                 const char *comment);
/* A port only the simulator's model has: printed first, inside `ifdef CLHLS_SIM_CHECKS
 * (a module with one needs an ordinary port as well). */
void hls_nl_sim_port(hls_nl_module *m, hls_nl_dir dir, const char *name, unsigned width,
                     const char *comment);
void hls_nl_net(hls_nl_module *m, const char *name, unsigned width, const char *comment);
void hls_nl_reg(hls_nl_module *m, const char *name, unsigned width, const char *comment);
/* A reg array (a memory) of `entries` words of `width` bits, declared
 * "reg [width-1:0] name [0:entries-1]"; a block drives it as a whole. */
void hls_nl_reg_array(hls_nl_module *m, const char *name, unsigned width, unsigned entries,
                      const char *comment);
/* Marks a net that nothing reads (it is printed between lint_off/lint_on UNUSEDSIGNAL). */
void hls_nl_unused(hls_nl_module *m, const char *name);
/* Marks a port or net that is indexed as a vector: it is declared with a range even
 * when it has one bit ([0:0]). */
void hls_nl_vector(hls_nl_module *m, const char *name);
/* Marks a net that synthesis keeps as it is ((* keep *)): logic optimisation and LUT
 * mapping do not merge it into its readers. */
void hls_nl_keep(hls_nl_module *m, const char *name);

/* An instance of `module` (a template or a module of the netlist), its parameters in
 * order, and its port connections in order. The connection's expression is what the
 * port reads (HLS_NL_IN) or the net or slice of a net it drives (HLS_NL_OUT; "" leaves
 * an output open). */
hls_nl_instance *hls_nl_instance_new(hls_nl_module *m, const char *module, const char *name);
void hls_nl_param(hls_nl_instance *i, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void hls_nl_connect(hls_nl_instance *i, hls_nl_dir dir, const char *port, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* assign TARGET = EXPRESSION; the target is a net, an output port or a slice of one. */
void hls_nl_assign(hls_nl_module *m, const char *target, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A block of Verilog text (an always or initial block, an `ifdef), printed as given,
 * indented one level; hls_nl_drives names each reg or output reg it assigns. */
hls_nl_block *hls_nl_block_new(hls_nl_module *m, const char *text);
void hls_nl_drives(hls_nl_block *b, const char *name);

/* The module as Verilog: the comment, `default_nettype none, the waivers, the port
 * list with a comment per port, nets, instances, assigns, blocks, endmodule. */
void hls_nl_print(FILE *out, const hls_nl_module *m);

/* A port of a Verilog template (rtl-templates/), as tools/template_ports.py reads
 * them into template_ports.c. */
typedef struct hls_nl_template_port {
    const char *module; /* the template's module */
    const char *port;   /* the port */
    hls_nl_dir dir;     /* HLS_NL_IN or HLS_NL_OUT */
} hls_nl_template_port;

extern const hls_nl_template_port hls_nl_template_ports[]; /* by module, ports in order */
extern const int hls_nl_ntemplate_ports;

/* Appends one line per problem to `errors` (each naming the module and the net, or
 * the instance and the port) and returns how many there are: a net or output port
 * with no driver or with several (instance outputs, assigns, blocks; input ports drive
 * themselves), a reg not driven by a block or a wire driven by one, something driven
 * or read that is not declared, an instance port connected twice, an instance of a
 * module neither of the netlist nor a template, and for instances of modules of the
 * netlist and of templates a port missing, unknown or of the wrong direction; widths
 * of connections of a net (or a slice with constant bounds) to a port of known width
 * that differ. */
int hls_nl_check(const hls_nl_module *m, strbuf *errors);

#endif
