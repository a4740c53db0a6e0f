/* The device interface the compiler, the simulator bridge and the runtime share: the
 * kernel register blocks and the argument area the compiler lays out and the runtime
 * writes, the alignment of every buffer a kernel gets, and the printf buffer the
 * compiler's records go to and the runtime formats. What differs per kernel (register
 * offsets, counters, probes, printf formats) is in metadata.json; these are the fixed
 * numbers behind it (docs/architecture.md, "Register map" and "printf"). */
#ifndef CLHLS_COMMON_DEVICE_ABI_H
#define CLHLS_COMMON_DEVICE_ABI_H

/* Register map limits: 256 registers of 64 bits per kernel, kernel blocks selected by
 * the address bits above 7 (16 bits of address up to 256 kernels, more for a larger
 * program: hls_emit_reg_addr_bits in hls/emit_verilog.c); the arguments are packed in
 * order into an area from register 32 to the end of the block (little-endian: byte b of
 * the area is bits 8*(b%8) of register 32 + b/8). The device promises
 * CL_DEVICE_MAX_PARAMETER_SIZE bytes of arguments (the OpenCL 1.2 minimum); the area
 * holds more, so that argument lists counted the way some programs count them (a
 * 3-element vector as 3 elements, where it takes the room of 4) still fit. */
#define HLS_REGS_PER_KERNEL 256
#define HLS_REG_FIRST_ARG 32
#define HLS_ARG_AREA_BYTES (8 * (HLS_REGS_PER_KERNEL - HLS_REG_FIRST_ARG))
#define HLS_MAX_PARAMETER_SIZE 1024
#define HLS_MAX_KERNELS 4096
/* Every buffer a kernel gets starts at a multiple of this many bytes: the runtime
 * hands out device memory in pages, CL_DEVICE_MEM_BASE_ADDR_ALIGN says so and
 * sub-buffers must start there; the compiler relies on it to merge accesses. */
#define HLS_BUFFER_ALIGN 4096
/* Probe registers (21..31): occupancies the runtime reads when a kernel hangs. */
#define HLS_REG_FIRST_PROBE 21
#define HLS_MAX_PROBES 11

/* printf: the device buffer each NDRange of a kernel that calls printf gets
 * (CL_DEVICE_PRINTF_BUFFER_SIZE), and the layout of its records (printf_spec.h). */
#define HLS_PRINTF_BUFFER_BYTES (1u << 20) /* the whole buffer, header included */
#define HLS_PRINTF_HEADER_BYTES 8u         /* word 0: bytes claimed; word 1: unused */
#define HLS_PRINTF_RECORD_HEADER 16u       /* format id, global id 0, 1, 2 (32 bits each) */

#endif
