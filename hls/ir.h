/* The hardware IR: what the compiler knows about one kernel between LLVM IR and
 * Verilog. A kernel is a list of basic blocks; a block is a list of operations, each
 * with a bit width, operands that name earlier operations, and, after scheduling, the
 * pipeline stage where it starts and its latency. Memory operations carry their address
 * space and load-store unit. Everything is allocated from the compilation's arena. */
#ifndef CLHLS_HLS_IR_H
#define CLHLS_HLS_IR_H

#include <stdint.h>
#include <stdio.h>

#include "board.h"
#include "util.h"

typedef enum {
    HOP_CONST,      /* constant: imm */
    HOP_ARG,        /* kernel argument register: arg */
    HOP_NDRANGE,    /* NDRange register: imm = hls_ndrange_reg, dim */
    HOP_TOKEN,      /* work-item token field: imm = hls_token_field, dim */
    HOP_ADD, HOP_SUB, HOP_MUL,
    HOP_AND, HOP_OR, HOP_XOR,
    HOP_SHL, HOP_LSHR, HOP_ASHR,
    HOP_ICMP,       /* imm = LLVMIntPredicate */
    HOP_SELECT,     /* a ? b : c */
    HOP_TRUNC, HOP_ZEXT, HOP_SEXT,
    HOP_FADD, HOP_FSUB, HOP_FMUL,
    HOP_FCMP,       /* imm = LLVMRealPredicate */
    HOP_SITOFP, HOP_UITOFP, HOP_FPTOSI, HOP_FPTOUI,
    HOP_LOAD,       /* a = byte address; width = loaded bits */
    HOP_STORE,      /* a = byte address, b = value */
    HOP_COUNT
} hls_opcode;

/* NDRange values held in registers for the whole kernel run. */
typedef enum {
    HLS_ND_WORK_DIM, HLS_ND_GLOBAL_SIZE, HLS_ND_LOCAL_SIZE, HLS_ND_GLOBAL_OFFSET,
    HLS_ND_NUM_GROUPS,
} hls_ndrange_reg;

/* Fields of the work-item token produced by the work-item generator. */
typedef enum {
    HLS_TOK_GLOBAL_ID, HLS_TOK_LOCAL_ID, HLS_TOK_GROUP_ID, HLS_TOK_GROUP_SIZE,
} hls_token_field;

typedef struct hls_op {
    int id;              /* index in the kernel's op table */
    hls_opcode opc;      /* what it computes */
    unsigned width;      /* result width in bits (1..64); stores: stored width */
    int nargs;           /* operands used */
    int args[3];         /* operand op ids */
    uint64_t imm;        /* constant / predicate / field selector */
    int dim;             /* dimension for HOP_NDRANGE / HOP_TOKEN */
    int arg;             /* kernel argument index for HOP_ARG */
    hls_loc loc;         /* source location */
    /* memory */
    int addr_space;      /* 1 global, 2 constant */
    int lsu;             /* load-store unit index in the kernel */
    /* schedule */
    int start;           /* stage whose values the op reads */
    int latency;         /* stages until the result exists (0 = combinational) */
    int last_use;        /* last stage any user reads the result (or ready time) */
} hls_op;

typedef struct hls_block {
    int *ops;            /* op ids in program order */
    int nops, capops;    /* number of ops / allocated */
} hls_block;

typedef enum { HLS_ARG_BUFFER, HLS_ARG_SCALAR, HLS_ARG_LOCAL } hls_arg_kind;

typedef struct hls_arg {
    const char *name;          /* argument name */
    const char *type_name;     /* OpenCL type as written, e.g. "float*" */
    const char *type_qual;     /* "const", "restrict", "volatile" combination */
    const char *access_qual;   /* "none" for buffers and scalars */
    hls_arg_kind kind;         /* how the runtime passes it */
    int addr_space;            /* 0 private, 1 global, 2 constant, 3 local */
    unsigned size;             /* bytes of the value passed to clSetKernelArg */
    unsigned width;            /* bits of the register value the hardware uses */
} hls_arg;

typedef struct hls_kernel {
    const char *name;          /* kernel function name */
    hls_loc loc;               /* where the kernel is defined */
    hls_arg *args;             /* arguments in order */
    int nargs;                 /* number of arguments */
    hls_op *ops;               /* op table */
    int nops, capops;          /* used / allocated */
    hls_block *blocks;         /* basic blocks */
    int nblocks;               /* number of blocks */
    unsigned reqd_wg_size[3];  /* reqd_work_group_size, 0 when absent */
    unsigned wg_size_hint[3];  /* work_group_size_hint, 0 when absent */
    int nlsus;                 /* load-store units */
    int depth;                 /* pipeline depth (last stage index) after scheduling */
    int mem_latency;           /* latency the scheduler assumed for loads */
} hls_kernel;

/* Register map limits (docs/architecture.md): 128 registers per kernel, arguments
 * from register 32, kernel blocks selected by address bits 15:7. */
#define HLS_REGS_PER_KERNEL 128
#define HLS_REG_FIRST_ARG 32
#define HLS_MAX_ARGS (HLS_REGS_PER_KERNEL - HLS_REG_FIRST_ARG)
#define HLS_MAX_KERNELS 512

typedef struct hls_program {
    hls_kernel **kernels;      /* every kernel of the program */
    int nkernels;              /* number of kernels */
    const board_t *board;      /* target board */
    int uniform_wg;            /* 1 when non-uniform work-groups are not allowed */
    const char *cl_std;        /* OpenCL C version compiled for */
} hls_program;

hls_op *hls_ir_new_op(hls_kernel *k, arena *a, hls_opcode opc, unsigned width);
const char *hls_ir_opcode_name(hls_opcode opc);
int hls_ir_is_invariant(const hls_op *op);
void hls_ir_dump(FILE *out, const hls_program *p);
/* Checks the IR's invariants; returns 0 or writes a message and returns -1. */
int hls_ir_verify(const hls_program *p, strbuf *err);

#endif
