/* Device operations: the one boundary between the OpenCL runtime and whatever executes
 * the commands. The runtime (queues, events, buffers, kernels) only calls these
 * functions; the simulated device (device_sim.c, on top of sim-bridge/clhls_sim.h)
 * fills them in. A future hardware device would fill in the same struct.
 *
 * Every operation is thread-safe (a device serialises its operations itself). Device
 * addresses are byte addresses in the device's global memory. Operations return 0 on
 * success or a negative RT_DEV_* code. */
#ifndef CLHLS_DEVICE_H
#define CLHLS_DEVICE_H

#include <stddef.h>
#include <stdint.h>

#include "board.h"

typedef enum {
    RT_DEV_OK = 0,
    RT_DEV_NOMEM = -1,        /* no device memory (or host memory) left */
    RT_DEV_TIMEOUT = -2,      /* the watchdog: the kernel made no forward progress for
                                 watchdog_cycles consecutive cycles */
    RT_DEV_BAD_ADDRESS = -3,  /* the kernel touched memory outside its buffers */
    RT_DEV_LOAD = -4,         /* the program's model could not be loaded */
    RT_DEV_ERROR = -5,        /* anything else */
    RT_DEV_RUNNING = 1,       /* kernel_wait's cycles ran out and every kernel runs on */
    RT_DEV_STILL = 2,         /* ... and none of them moved in those cycles */
} rt_dev_status;

typedef struct rt_device_impl rt_device_impl;       /* a device's private state */

/* The most kernels a device runs at once (kernel_start). */
#define RT_DEV_MAX_KERNELS 64
typedef struct rt_device_program rt_device_program; /* a program loaded on a device */

/* Register indexes and bit masks that drive one kernel (from metadata.json). */
typedef struct rt_kernel_regs {
    uint32_t control;           /* control register */
    uint32_t status;            /* status register */
    uint32_t work_dim;          /* work_dim register */
    uint32_t global_size[3];    /* global size per dimension */
    uint32_t local_size[3];     /* local size per dimension */
    uint32_t global_offset[3];  /* global offset per dimension */
    uint32_t num_groups[3];     /* number of groups per dimension */
    uint64_t start_mask;        /* written to control to start */
    uint64_t busy_mask;         /* status bit: busy */
    uint64_t done_mask;         /* status bit: done */
} rt_kernel_regs;

/* A hardware counter of a kernel. */
typedef struct rt_counter {
    char *name;                 /* e.g. "busy_cycles" */
    uint32_t reg;               /* register index */
    uint32_t shift;             /* its lowest bit in the register (0; 32: the upper half) */
} rt_counter;

/* An occupancy probe of a kernel: a register holding how full one place of the
 * hardware is (a loop's credits taken, a FIFO's entries, an LSU's requests
 * outstanding). Read when the watchdog ends the kernel, to say where it is stuck. */
typedef struct rt_probe {
    char *name;                 /* the place, e.g. "loop at k.cl:5:3: credits" */
    uint32_t reg;               /* register index */
    uint64_t capacity;          /* the most it can hold (0: not given) */
    char *peer;                 /* a channel's: the kernel at its other end (NULL: none);
                                   the probe is reported even when 0, and whether that
                                   kernel runs */
    unsigned peer_unit;         /* ... and its compute unit */
    int peer_autorun;           /* ... which runs for ever (an autorun kernel) */
} rt_probe;

/* A global load-store unit of a kernel (metadata "lsus", in unit order). */
typedef struct rt_lsu {
    char *kind;                 /* "load", "store" or "atomic" */
    char *at;                   /* source location of the access, "file:line:col" */
    unsigned bytes;             /* size of one access */
} rt_lsu;

/* A buffer a kernel was given: the device memory its accesses may touch. */
typedef struct rt_launch_buffer {
    uint64_t addr;              /* device address */
    uint64_t bytes;             /* size */
    const char *name;           /* the argument's name ("printf buffer" for printf's) */
    int arg;                    /* argument index, -1 for the printf buffer */
} rt_launch_buffer;

/* A counter's value after a run. */
typedef struct rt_counter_value {
    const char *name;           /* counter name (owned by the program's metadata) */
    uint64_t value;             /* value read after the run */
} rt_counter_value;

/* Everything needed to run one NDRange. */
typedef struct rt_kernel_launch {
    const char *name;           /* kernel name, for messages */
    const rt_kernel_regs *regs; /* its registers */
    unsigned work_dim;          /* 1..3 */
    uint64_t global[3];         /* global size (unused dimensions 1) */
    uint64_t local[3];          /* local size (unused dimensions 1) */
    uint64_t offset[3];         /* global offset (unused dimensions 0) */
    uint64_t groups[3];         /* ceil(global/local) (unused dimensions 1) */
    unsigned simd;              /* work-items of dimension 0 per hardware work-item (>= 1):
                                   the hardware's global size, local size and offset there
                                   are 1/simd */
    unsigned nargs;             /* argument registers to write */
    const uint32_t *arg_regs;   /* their indexes */
    const uint64_t *arg_values; /* their values */
    unsigned ncounters;         /* counters to read after the run */
    const rt_counter *counters; /* their registers */
    unsigned nprobes;           /* occupancy probes read when the watchdog fires */
    const rt_probe *probes;     /* their registers */
    uint64_t watchdog_cycles;   /* idle window: consecutive cycles without forward
                                   progress after which the kernel counts as hung */
    unsigned nbuffers;          /* buffers given (every access must fall inside one) */
    const rt_launch_buffer *buffers;
    unsigned nlsus;             /* the kernel's global load-store units */
    const rt_lsu *lsus;         /* (to name the access at fault) */
    unsigned unit;              /* its compute unit: the kernel's index in the program */
} rt_kernel_launch;

/* Outcome of one NDRange. */
typedef struct rt_kernel_result {
    uint64_t cycles;            /* cycles simulated from its start to its end */
    uint64_t start_cycle;       /* the accelerator's cycle count (ops.cycles) at its start */
    uint64_t end_cycle;         /* ... and at its end */
    uint64_t skipped_cycles;    /* cycles of it the simulator jumped over (nothing moved) */
    uint64_t *counter_values;   /* filled, one per launch counter (caller's array) */
    uint64_t bad_address;       /* RT_DEV_BAD_ADDRESS: the address */
    int bad_write;              /* RT_DEV_BAD_ADDRESS: it was a write */
    char message[2048];         /* failure description, naming the kernel; a watchdog
                                   timeout lists the non-zero probes ("; stuck: ...") */
} rt_kernel_result;

/* What a program's waveform records (CLHLS_WAVES, host-runtime/waves.c). */
typedef struct rt_waves {
    int on;                     /* CLHLS_WAVES is set */
    char path[4096];            /* the FST file */
    char kernel[256];           /* only while this kernel runs (CLHLS_WAVES_KERNEL), "" for
                                   every kernel and every cycle of the accelerator */
    int window;                 /* 1: only cycles first..last of each recorded launch,
                                   counted from its start (CLHLS_WAVES_CYCLES) */
    uint64_t first, last;       /* the window */
} rt_waves;

typedef struct rt_device_ops {
    const char *kind;           /* e.g. "simulator" */
    /* Creates the device for a board. */
    int (*open)(const board_t *board, rt_device_impl **impl, char *err, size_t errlen);
    void (*close)(rt_device_impl *impl);
    /* Device memory: allocate (address out), free, host transfers, device-side ops.
     * alloc places the block inside memory port `port`'s range (board_port_span), or
     * where the device's policy says when port is -1; RT_DEV_NOMEM when it does not
     * fit there. */
    int (*alloc)(rt_device_impl *impl, uint64_t size, int port, uint64_t *addr);
    void (*free)(rt_device_impl *impl, uint64_t addr);
    int (*write)(rt_device_impl *impl, uint64_t addr, const void *src, size_t size);
    int (*read)(rt_device_impl *impl, uint64_t addr, void *dst, size_t size);
    int (*copy)(rt_device_impl *impl, uint64_t dst, uint64_t src, size_t size);
    int (*fill)(rt_device_impl *impl, uint64_t addr, const void *pattern,
                size_t pattern_size, size_t size);
    /* Programs: load a built model (once per program and device), unload it. */
    int (*program_load)(rt_device_impl *impl, const char *model_path,
                        rt_device_program **prog, char *err, size_t errlen);
    void (*program_unload)(rt_device_impl *impl, rt_device_program *prog);
    /* Records a loaded traced model's signals as w says, until the program is unloaded
     * or the process exits (the file is then complete). RT_DEV_OK, or RT_DEV_ERROR and
     * why (a model without tracing, a file that cannot be written). */
    int (*program_waves)(rt_device_impl *impl, rt_device_program *prog, const rt_waves *w,
                         char *err, size_t errlen);
    /* Kernels of one program running at once, each on its compute unit (launch->unit):
     * kernel_start starts one (the accelerator is reset first when none of its units
     * runs) while others may run; launch and result must stay valid until kernel_wait
     * reports it. A unit runs one launch at a time; a program's units run only while no
     * other program's do (the caller's rule). Returns RT_DEV_OK, or the start failed
     * (message in result). */
    int (*kernel_start)(rt_device_impl *impl, rt_device_program *prog,
                        const rt_kernel_launch *launch, rt_kernel_result *result);
    /* Steps the accelerator until a started kernel ends (one that already ended is
     * reported first); *unit receives its compute unit, its result is filled, and its
     * outcome returned (RT_DEV_OK, RT_DEV_TIMEOUT, RT_DEV_BAD_ADDRESS; RT_DEV_ERROR when
     * nothing was started), or for at most max_cycles cycles (0: no limit), then
     * RT_DEV_RUNNING when none ended (RT_DEV_STILL when none moved in those cycles
     * either). A kernel's failure ends it alone; the others run on. */
    int (*kernel_wait)(rt_device_impl *impl, rt_device_program *prog, uint64_t max_cycles,
                       unsigned *unit);
    /* The accelerator's cycle count (the clock the results' start_cycle and end_cycle
     * are on). */
    uint64_t (*cycles)(rt_device_impl *impl, rt_device_program *prog);
} rt_device_ops;

/* The simulated device (device_sim.c). */
extern const rt_device_ops rt_device_sim_ops;

#endif
