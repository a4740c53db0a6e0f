/* Board descriptions: one JSON file per board under boards/, loaded into a board_t.
 * Every layer reads the board through this header: the compiler (operator latencies,
 * memory port width), the simulator (memory latency and bandwidth) and the runtime
 * (device queries). The file format is described in docs/board-format.md. */
#ifndef CLHLS_BOARD_H
#define CLHLS_BOARD_H

#define BOARD_MAX_MEM_PORTS 8          /* memory.ports at most */
#define BOARD_PORT_RESERVED 0x10000u   /* bytes at the start of each port's range that
                                          hold no buffer (address 0 is NULL) */

#include <stddef.h>
#include <stdint.h>

/* Operator classes with a latency in the board's timing table. */
typedef enum {
    BOARD_OP_INT_ADD,  /* integer add/sub/compare/logic/shift/select */
    BOARD_OP_INT_MUL,  /* integer multiply */
    BOARD_OP_INT_DIV,  /* integer divide/remainder */
    BOARD_OP_FP_ADD,   /* fp32 add/sub */
    BOARD_OP_FP_MUL,   /* fp32 multiply */
    BOARD_OP_FP_CMP,   /* fp32 compare */
    BOARD_OP_FP_CONV,  /* int <-> fp32 conversion */
    BOARD_OP_FP_FMA,   /* fp32 fused multiply-add */
    BOARD_OP_COUNT
} board_op;

/* What a Yosys cell type of the board's family is, for the resource count and the fmax
 * estimate. LUT, FF, BRAM and DSP cells are counted against the board's capacity; LUT,
 * carry and mux cells are logic on a register-to-register path; FF, BRAM and DSP cells
 * start and end paths. */
typedef enum {
    BOARD_CELL_LUT,    /* look-up table (or a cell built from LUTs: LUT RAM, shift register) */
    BOARD_CELL_FF,     /* flip-flop */
    BOARD_CELL_BRAM,   /* block RAM */
    BOARD_CELL_DSP,    /* DSP block or hard multiplier */
    BOARD_CELL_CARRY,  /* carry-chain cell */
    BOARD_CELL_MUX,    /* wide-function multiplexer between LUTs */
    BOARD_CELL_CLASS_COUNT
} board_cell_class;

/* One entry of the board's cell table: Yosys cell types matching a pattern. */
typedef struct board_cell {
    board_cell_class cls;    /* what the cells are */
    char *pattern;           /* cell type or fnmatch pattern, e.g. "SB_DFF*" */
    double weight;           /* how many resource units one cell uses, e.g. 0.5 for a
                                half block RAM */
} board_cell;

typedef struct board {
    char *name;              /* board name, also the file's base name */
    char *description;       /* one line for humans */
    char *vendor;            /* FPGA vendor, e.g. "Xilinx" */
    char *family;            /* FPGA family, e.g. "xcup" */
    char *part;              /* FPGA part number */
    char *synth_command;     /* Yosys synthesis command, e.g. "synth_xilinx -family xcup" */
    char *pnr_tool;          /* place-and-route tool, NULL when synthesis only */
    char **pnr_args;         /* its device arguments, NULL-terminated (NULL without a tool) */
    char *bitstream_tool;    /* packs the routed design into a bitstream, or NULL */
    char *lutram;            /* how memories marked ram_style "distributed" become LUT RAM
                                (fpga.lutram): NULL when the family has none, "ram_style"
                                when synth_command honours the attribute, else "LABEL:
                                COMMAND", a Yosys command run on them at synth_command's
                                label LABEL */
    board_cell *cells;       /* the family's cell table (synthesis.cells) */
    size_t ncells;           /* entries in cells */
    double delay_ns[BOARD_CELL_CLASS_COUNT]; /* fmax estimate (synthesis.delay_ns): [FF] =
                                clock-to-out plus setup of a register-to-register path,
                                [LUT], [CARRY], [MUX] = one such cell and its net; BRAM
                                and DSP are unused (their cells start and end paths) */
    double fanout_ns;        /* fmax estimate (synthesis.delay_ns.fanout, optional, 0 when
                                absent): net delay added per doubling of a cell's fan-out */
    uint64_t luts;           /* LUT (or ALM/LC) capacity */
    uint64_t ffs;            /* flip-flop capacity */
    uint64_t brams;          /* block RAM count */
    uint64_t dsps;           /* DSP block count */
    double clock_mhz;        /* kernel clock target */
    uint64_t global_mem_bytes;   /* device global memory size */
    uint64_t max_alloc_bytes;    /* largest single buffer */
    unsigned mem_addr_bits;      /* byte-address width of the memory port (12..64) */
    unsigned mem_ports;          /* memory ports (channels), 1, 2, 4 or 8; each serves
                                    an aligned range of global_mem_bytes / mem_ports
                                    bytes (board_port_span), port p the p-th */
    unsigned mem_width_bits;     /* data width of one memory port */
    unsigned mem_latency_cycles; /* request-to-response latency in kernel cycles */
    double mem_bandwidth_gbps;   /* sustained bandwidth of one port, GB/s */
    uint64_t local_mem_bytes;    /* local memory per compute unit */
    unsigned max_work_group_size;/* largest work-group the hardware is built for */
    unsigned work_item_index_bits;/* bits of global ids, sizes and offsets in the hardware
                                   (16..64): offset + size stays below 2^bits */
    unsigned compute_units;      /* default compute units per kernel */
    double host_link_gbps;       /* host link (PCIe) bandwidth, GB/s */
    double host_link_latency_us; /* host link latency per transfer, microseconds */
    unsigned op_latency[BOARD_OP_COUNT]; /* pipeline stages per operator class */
    char *path;              /* file the board was loaded from */
} board_t;

/* Loads boards/NAME.json from the board search path ($CLHLS_BOARD_DIR, then the
 * build tree, then the installed data directory). On failure returns NULL and writes a
 * message to err. */
board_t *board_load(const char *name, char *err, size_t errlen);

/* Loads a board from an explicit file path. */
board_t *board_load_file(const char *path, char *err, size_t errlen);

/* Names of all boards on the search path, NULL-terminated; free with board_list_free.
 * NULL when out of memory. */
char **board_list(void);
void board_list_free(char **names);

/* The default board's name ($CLHLS_BOARD, else the built-in default). */
const char *board_default_name(void);

/* The class of Yosys cell type `type` on this board (its first matching cell table
 * entry) and the entry's weight; -1 when the table does not list it. */
int board_cell_class_of(const board_t *board, const char *type, double *weight);

/* Name of a cell class as the board file writes it ("lut", "ff", ...). */
const char *board_cell_class_name(board_cell_class cls);

/* Bytes one memory port moves per kernel cycle at the board's bandwidth. */
double board_mem_bytes_per_cycle(const board_t *board);

/* The bytes of device addresses each memory port serves: port p serves
 * [p * span, (p + 1) * span) (all of memory on a one-port board). */
uint64_t board_port_span(const board_t *board);

/* The memory port serving device address addr: the address bits just above the span's,
 * as the hardware routes a request (addresses past the memory wrap around). */
unsigned board_port_of(const board_t *board, uint64_t addr);

/* Logic levels (LUTs) a register-to-register path may cross at the board's clock by
 * its delay model (synthesis.delay_ns); 0 when the board has no delay model. */
double board_logic_levels(const board_t *board);

void board_free(board_t *board);

#endif
