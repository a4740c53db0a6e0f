/* The emitter's netlist model (hls/netlist.h): the check finds each kind of broken
 * netlist and names the module, the net or the instance and the port, also for
 * instances of the Verilog templates; a correct module passes; the printer writes the
 * expected Verilog. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "netlist.h"

static arena test_arena;

static void teardown(void)
{
    arena_free(&test_arena);
}

TestSuite(netlist, .fini = teardown);

/* A module "child" (a, 8 bits, and clk in; q, 8 bits, out) and a module "parent" with
 * clock and 8-bit input ports, a net `w` of 8 bits, that instantiates it as `c`. */
static hls_nl_module *parent_of_child(hls_nl_netlist *nl)
{
    hls_nl_module *child = hls_nl_module_new(nl, "child");
    hls_nl_port(child, HLS_NL_IN, "clk", 1, "clock");
    hls_nl_port(child, HLS_NL_IN, "a", 8, "operand");
    hls_nl_port(child, HLS_NL_OUT, "q", 8, "result");
    hls_nl_module *m = hls_nl_module_new(nl, "parent");
    hls_nl_port(m, HLS_NL_IN, "clk", 1, "clock");
    hls_nl_port(m, HLS_NL_IN, "x", 8, "operand");
    hls_nl_port(m, HLS_NL_OUT, "y", 8, "result");
    hls_nl_net(m, "w", 8, NULL);
    return m;
}

/* Checks m, expects `problems` problems and every one of the NULL-terminated strings
 * in the messages; returns nothing, asserts. */
static void expect_check(const hls_nl_module *m, int problems, const char *const *expected)
{
    strbuf errors = {0};
    int n = hls_nl_check(m, &errors);
    const char *text = errors.data ? errors.data : "";
    cr_expect_eq(n, problems, "%d problems, expected %d:\n%s", n, problems, text);
    for (const char *const *e = expected; *e; e++)
        cr_expect(strstr(text, *e), "no '%s' in:\n%s", *e, text);
    sb_free(&errors);
}

Test(netlist, a_correct_module_passes)
{
    hls_nl_netlist *nl = hls_nl_netlist_new(&test_arena);
    hls_nl_module *m = parent_of_child(nl);
    hls_nl_net(m, "halves", 16, "two bytes, driven a byte at a time");
    hls_nl_reg(m, "r", 8, NULL);
    hls_nl_instance *c = hls_nl_instance_new(m, "child", "c");
    hls_nl_connect(c, HLS_NL_IN, "clk", "clk");
    hls_nl_connect(c, HLS_NL_IN, "a", "x");
    hls_nl_connect(c, HLS_NL_OUT, "q", "w");
    hls_nl_instance *t = hls_nl_instance_new(m, "clhls_delay", "d");
    hls_nl_param(t, "WIDTH", "%u", 8u);
    hls_nl_connect(t, HLS_NL_IN, "clk", "clk");
    hls_nl_connect(t, HLS_NL_IN, "ce", "1'b1");
    hls_nl_connect(t, HLS_NL_IN, "d", "w ^ x");
    hls_nl_connect(t, HLS_NL_OUT, "q", "halves[15:8]");
    hls_nl_assign(m, "halves[7:0]", "r");
    hls_nl_drives(hls_nl_block_new(m, "always @(posedge clk)\n    r <= w;\n"), "r");
    hls_nl_assign(m, "y", "halves[15:8] & halves[7:0]");
    expect_check(m, 0, (const char *const[]){NULL});
}

Test(netlist, a_net_with_two_drivers)
{
    hls_nl_netlist *nl = hls_nl_netlist_new(&test_arena);
    hls_nl_module *m = parent_of_child(nl);
    hls_nl_instance *c = hls_nl_instance_new(m, "child", "c");
    hls_nl_connect(c, HLS_NL_IN, "clk", "clk");
    hls_nl_connect(c, HLS_NL_IN, "a", "x");
    hls_nl_connect(c, HLS_NL_OUT, "q", "w");
    hls_nl_assign(m, "w[3:0]", "x[3:0]");
    hls_nl_assign(m, "y", "w");
    expect_check(m, 1, (const char *const[]){
        "module parent: net 'w' has more than one driver: instance 'c' port 'q', "
        "assign to 'w[3:0]'", NULL});
}

Test(netlist, a_net_without_a_driver)
{
    hls_nl_netlist *nl = hls_nl_netlist_new(&test_arena);
    hls_nl_module *m = parent_of_child(nl);
    hls_nl_net(m, "half", 8, NULL);
    hls_nl_assign(m, "half[7:4]", "x[3:0]");
    hls_nl_instance *c = hls_nl_instance_new(m, "child", "c");
    hls_nl_connect(c, HLS_NL_IN, "clk", "clk");
    hls_nl_connect(c, HLS_NL_IN, "a", "w"); /* read, never driven */
    hls_nl_connect(c, HLS_NL_OUT, "q", "y");
    expect_check(m, 2, (const char *const[]){
        "module parent: net 'w' has no driver",
        "module parent: bits 3:0 of net 'half' have no driver", NULL});
}

Test(netlist, an_instance_port_connected_twice)
{
    hls_nl_netlist *nl = hls_nl_netlist_new(&test_arena);
    hls_nl_module *m = parent_of_child(nl);
    hls_nl_instance *c = hls_nl_instance_new(m, "child", "c");
    hls_nl_connect(c, HLS_NL_IN, "clk", "clk");
    hls_nl_connect(c, HLS_NL_IN, "a", "x");
    hls_nl_connect(c, HLS_NL_IN, "clk", "clk");
    hls_nl_connect(c, HLS_NL_OUT, "q", "w");
    hls_nl_assign(m, "y", "w");
    expect_check(m, 1, (const char *const[]){
        "module parent: instance 'c' (child): port 'clk' connected twice", NULL});
}

Test(netlist, a_missing_and_an_unknown_port_of_a_netlist_module)
{
    hls_nl_netlist *nl = hls_nl_netlist_new(&test_arena);
    hls_nl_module *m = parent_of_child(nl);
    hls_nl_instance *c = hls_nl_instance_new(m, "child", "c");
    hls_nl_connect(c, HLS_NL_IN, "a", "x");
    hls_nl_connect(c, HLS_NL_IN, "b", "x");
    hls_nl_connect(c, HLS_NL_OUT, "q", "w");
    hls_nl_assign(m, "y", "w");
    expect_check(m, 2, (const char *const[]){
        "module parent: instance 'c' (child): 'b' is not a port of child",
        "module parent: instance 'c' (child): port 'clk' is not connected", NULL});
}

Test(netlist, a_width_mismatch)
{
    hls_nl_netlist *nl = hls_nl_netlist_new(&test_arena);
    hls_nl_module *m = parent_of_child(nl);
    hls_nl_net(m, "wide", 16, NULL);
    hls_nl_assign(m, "wide", "{x, x}");
    hls_nl_instance *c = hls_nl_instance_new(m, "child", "c");
    hls_nl_connect(c, HLS_NL_IN, "clk", "clk");
    hls_nl_connect(c, HLS_NL_IN, "a", "wide");           /* 16 bits into 8 */
    hls_nl_connect(c, HLS_NL_OUT, "q", "w[3 +: 4]");     /* 8 bits out into 4 */
    hls_nl_assign(m, "w[2:0]", "3'd0");
    hls_nl_assign(m, "w[7]", "1'b0");
    hls_nl_assign(m, "y", "w");
    expect_check(m, 2, (const char *const[]){
        "module parent: instance 'c' (child): port 'a' has 8 bits, connected to 'wide' of 16",
        "module parent: instance 'c' (child): port 'q' has 8 bits, connected to 'w[3 +: 4]' of 4",
        NULL});
}

Test(netlist, regs_wires_and_what_is_not_a_net)
{
    hls_nl_netlist *nl = hls_nl_netlist_new(&test_arena);
    hls_nl_module *m = parent_of_child(nl);
    hls_nl_reg(m, "r", 8, NULL);
    hls_nl_assign(m, "r", "x");                                     /* a reg by assign */
    hls_nl_drives(hls_nl_block_new(m, "always @(*) w = x;\n"), "w"); /* a wire in a block */
    hls_nl_instance *t = hls_nl_instance_new(m, "clhls_delay", "d");
    hls_nl_connect(t, HLS_NL_IN, "clk", "clk");
    hls_nl_connect(t, HLS_NL_IN, "ce", "1'b1");
    hls_nl_connect(t, HLS_NL_IN, "d", "missing");
    hls_nl_connect(t, HLS_NL_OUT, "q", "y + 1");
    hls_nl_assign(m, "y", "r");
    hls_nl_assign(m, "x", "8'd0");                                  /* an input driven */
    expect_check(m, 5, (const char *const[]){
        "module parent: reg 'r' is driven by assign to 'r' (a reg is assigned in a block)",
        "module parent: net 'w' is assigned in a block but not declared a reg",
        "module parent: instance 'd' port 'd' reads 'missing', which is not declared",
        "module parent: instance 'd' port 'q' drives 'y + 1', which is not a net or a slice",
        "module parent: input port 'x' has more than one driver: the input port itself, "
        "assign to 'x'", NULL});
}

Test(netlist, the_printer_writes_the_module)
{
    hls_nl_netlist *nl = hls_nl_netlist_new(&test_arena);
    hls_nl_module *m = hls_nl_module_new(nl, "clhls_example");
    hls_nl_comment(m, "An example, %d lines of comment.", 2);
    hls_nl_comment(m, "Second line.");
    hls_nl_lint_off(m, "PINCONNECTEMPTY", "an output stays open");
    hls_nl_port(m, HLS_NL_IN, "clk", 1, "kernel clock");
    hls_nl_port(m, HLS_NL_IN, "s_data", 32, "data in");
    hls_nl_port(m, HLS_NL_OUT_REG, "m_count", 8, "data seen");
    hls_nl_port(m, HLS_NL_OUT, "m_data", 32, "data out");
    hls_nl_net(m, "delayed", 32, "s_data one cycle later");
    hls_nl_net(m, "spare", 4, NULL);
    hls_nl_unused(m, "spare");
    hls_nl_net(m, "one", 1, "a vector of one bit");
    hls_nl_vector(m, "one");
    hls_nl_instance *d = hls_nl_instance_new(m, "clhls_delay", "stage");
    hls_nl_param(d, "WIDTH", "%u", 32u);
    hls_nl_param(d, "LATENCY", "1");
    hls_nl_connect(d, HLS_NL_IN, "clk", "clk");
    hls_nl_connect(d, HLS_NL_IN, "ce", "1'b1");
    hls_nl_connect(d, HLS_NL_IN, "d", "s_data");
    hls_nl_connect(d, HLS_NL_OUT, "q", "delayed");
    hls_nl_connect(d, HLS_NL_OUT, "open_output", "%s", "");
    hls_nl_assign(m, "m_data", "delayed ^ %s", "s_data");
    hls_nl_assign(m, "spare", "4'd0");
    hls_nl_assign(m, "one[0]", "1'b1");
    hls_nl_block *b = hls_nl_block_new(m, "`ifdef COUNT\nalways @(posedge clk)\n"
                                          "    m_count <= m_count + 8'd1;\n`endif\n");
    hls_nl_drives(b, "m_count");
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    cr_assert(f);
    hls_nl_print(f, m);
    fclose(f);
    const char *expected =
        "// An example, 2 lines of comment.\n"
        "// Second line.\n"
        "`default_nettype none\n"
        "// an output stays open\n"
        "/* verilator lint_off PINCONNECTEMPTY */\n"
        "module clhls_example (\n"
        "    input  wire clk,           // kernel clock\n"
        "    input  wire [31:0] s_data, // data in\n"
        "    output reg  [7:0] m_count, // data seen\n"
        "    output wire [31:0] m_data  // data out\n"
        ");\n"
        "    wire [31:0] delayed;  // s_data one cycle later\n"
        "    /* verilator lint_off UNUSEDSIGNAL */\n"
        "    wire [3:0] spare;\n"
        "    /* verilator lint_on UNUSEDSIGNAL */\n"
        "    wire [0:0] one;  // a vector of one bit\n"
        "    clhls_delay #(.WIDTH(32), .LATENCY(1)) stage (\n"
        "        .clk(clk), .ce(1'b1), .d(s_data), .q(delayed), .open_output());\n"
        "    assign m_data = delayed ^ s_data;\n"
        "    assign spare = 4'd0;\n"
        "    assign one[0] = 1'b1;\n"
        "`ifdef COUNT\n"
        "    always @(posedge clk)\n"
        "        m_count <= m_count + 8'd1;\n"
        "`endif\n"
        "endmodule\n"
        "`default_nettype wire\n";
    cr_expect_str_eq(text, expected);
    free(text);
    expect_check(m, 1, (const char *const[]){
        "module clhls_example: instance 'stage' (clhls_delay): 'open_output' is not a port "
        "of clhls_delay", NULL});
}

/* An instance of a template is checked against the template's ports (as
 * tools/template_ports.py reads them): every one connected, none unknown, each in its
 * direction; a module that is neither generated nor a template is a problem. */
Test(netlist, the_ports_of_a_template_instance)
{
    hls_nl_netlist *nl = hls_nl_netlist_new(&test_arena);
    hls_nl_module *m = parent_of_child(nl);
    hls_nl_instance *d = hls_nl_instance_new(m, "clhls_delay", "stage");
    hls_nl_connect(d, HLS_NL_IN, "clk", "clk");
    hls_nl_connect(d, HLS_NL_IN, "d", "x");
    hls_nl_connect(d, HLS_NL_IN, "q", "x");
    hls_nl_connect(d, HLS_NL_IN, "enable", "1'b1");
    hls_nl_instance *u = hls_nl_instance_new(m, "clhls_nonesuch", "u");
    hls_nl_connect(u, HLS_NL_OUT, "q", "w");
    hls_nl_assign(m, "y", "w");
    expect_check(m, 4, (const char *const[]){
        "module parent: instance 'stage' (clhls_delay): port 'q' is an output, connected as "
        "an input",
        "module parent: instance 'stage' (clhls_delay): 'enable' is not a port of clhls_delay",
        "module parent: instance 'stage' (clhls_delay): port 'ce' is not connected",
        "module parent: instance 'u': module clhls_nonesuch is neither generated nor a "
        "template", NULL});
}

/* A reg array (a ROM) is declared with its words, driven as a whole by the block that
 * assigns its words (an index past the width of a word is no bit range), and read by
 * words; without that block it has no driver. */
Test(netlist, a_reg_array)
{
    hls_nl_netlist *nl = hls_nl_netlist_new(&test_arena);
    hls_nl_module *m = hls_nl_module_new(nl, "rom_reader");
    hls_nl_port(m, HLS_NL_IN, "addr", 5, "byte address");
    hls_nl_port(m, HLS_NL_OUT, "q", 8, "the byte");
    hls_nl_reg_array(m, "rom0", 8, 32, "__constant table: 20 bytes");
    hls_nl_assign(m, "q", "rom0[addr]");
    expect_check(m, 1, (const char *const[]){"module rom_reader: reg 'rom0' has no driver", NULL});
    hls_nl_block *init = hls_nl_block_new(m, "initial begin : rom0_init\n"
                                             "    integer i;\n"
                                             "    for (i = 0; i < 32; i = i + 1)\n"
                                             "        rom0[i] = 8'h00;\n"
                                             "    rom0[19] = 8'h2a;\n"
                                             "end");
    hls_nl_drives(init, "rom0[19]"); /* a word: the array counts as driven */
    expect_check(m, 0, (const char *const[]){NULL});
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    cr_assert(f);
    hls_nl_print(f, m);
    fclose(f);
    cr_expect(strstr(text, "    reg  [7:0] rom0 [0:31];  // __constant table: 20 bytes\n"), "%s",
              text);
    cr_expect(strstr(text, "    initial begin : rom0_init\n        integer i;\n"), "%s", text);
    free(text);
}
