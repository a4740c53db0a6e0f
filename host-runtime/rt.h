/* Internal interface of the clhls host runtime (the OpenCL ICD). Every OpenCL object
 * is a struct that starts with the common header rt_object: the ICD dispatch pointer, a
 * magic number (so entry points can reject stale or foreign handles) and a reference
 * count. The runtime's files are layers, each calling only the layers below it
 * (docs/architecture.md, "The runtime"):
 *   entry points   platform.c, context.c, memory.c, program.c, kernel.c, event.c,
 *                  image.c, dispatch.c: validate with RT_CHECK, build commands
 *   scheduler      sched.c: event states, commands, the device workers, the timeline
 *                  (and trace.c, which records what the workers ran)
 *   executors      exec_kernel.c, exec_mem.c: run a command on its device
 *   device ops     device.h, filled in by device_sim.c
 *   base           object.c (the object header, validation, release), metadata.c,
 *                  printf.c, util.c
 * Programs are built beside the scheduler: program.c runs the compiler (compiler.c),
 * unpacks binaries (binary.c) and loads metadata.json (metadata.c).
 *
 * Locking: one runtime-wide lock (rt_lock) guards the event graph (statuses,
 * callbacks, the per-device pending lists, queue bookkeeping), because dependencies
 * cross queues and devices; host threads wait on rt_cond, idle workers on a condition
 * of sched.c, each woken only when what it waits for may have happened. Kernel
 * arguments and program builds have their own per-object mutex, CLHLS_TRACE's records
 * their own (trace.c, taken without rt_lock); each device serialises its operations
 * internally. Lock order: rt_lock may be held while taking an object or device mutex,
 * never the other way round. */
#ifndef CLHLS_RT_H
#define CLHLS_RT_H

#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_0_APIS
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl_icd.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "board.h"
#include "device_abi.h"
#include "device.h"
#include "printf_spec.h"

#define RT_EXPORT __attribute__((visibility("default")))

/* Magic numbers, one per object kind. */
enum {
    RT_MAGIC_PLATFORM = 0x504c4154,
    RT_MAGIC_DEVICE = 0x44455643,
    RT_MAGIC_CONTEXT = 0x43545854,
    RT_MAGIC_QUEUE = 0x51554555,
    RT_MAGIC_MEM = 0x4d454d4f,
    RT_MAGIC_PROGRAM = 0x50524f47,
    RT_MAGIC_KERNEL = 0x4b45524e,
    RT_MAGIC_EVENT = 0x4556454e,
    RT_MAGIC_DEAD = 0x44454144,
};

/* ---- allocation hook, logging, small helpers (util.c) ---- */
void *rt_alloc(size_t size);              /* zeroed; NULL on (possibly injected) failure */
void *rt_realloc(void *p, size_t size);
void rt_free(void *p);
char *rt_strdup(const char *s);
/* A whole file (rt_free; one byte more, zeroed); NULL on failure. */
unsigned char *rt_read_file(const char *path, size_t *len);
uint64_t rt_now_ns(void);                 /* host monotonic clock */
/* The profiling clock (ns): host time, except that a host thread waiting for the device
 * resumes when the awaited command ended on the device timeline, not when its
 * simulation finished on the host. Never goes backwards. */
uint64_t rt_clock_now(void);
/* A host thread waited from clock time began for something that ended at until. */
void rt_clock_waited(uint64_t began, uint64_t until);
/* The host learned that something ended at t: the clock is at least t from now on. */
void rt_clock_observe(uint64_t t);
int rt_verbose(void);                     /* CLHLS_VERBOSE set */
void rt_log_check(const char *func, const char *cond, cl_int code);
/* Copies an info value out following the clGet*Info rules. */
cl_int rt_info(size_t size, void *value, size_t *size_ret, const void *src, size_t src_size);
const char *rt_error_name(cl_int code);
/* Little-endian 64-bit words (the argument area). */
void rt_put_le64(unsigned char *p, uint64_t v);
uint64_t rt_get_le64(const unsigned char *p);

/* Validate in an entry point: on failure log the condition and return the code. */
#define RT_CHECK(cond, code)                                                          \
    do {                                                                              \
        if (!(cond)) {                                                                \
            rt_log_check(__func__, #cond, (code));                                    \
            return (code);                                                            \
        }                                                                             \
    } while (0)
/* Unconditional failure. */
#define RT_FAIL(code)                                                                 \
    do {                                                                              \
        rt_log_check(__func__, "unsupported or invalid request", (code));             \
        return (code);                                                                \
    } while (0)
#define RT_FAIL_OBJ(code)                                                             \
    do {                                                                              \
        rt_log_check(__func__, "unsupported or invalid request", (code));             \
        if (errcode_ret)                                                              \
            *errcode_ret = (code);                                                    \
        return NULL;                                                                  \
    } while (0)
/* Same for creators that return an object: sets *errcode_ret and returns NULL. */
#define RT_CHECK_OBJ(cond, code)                                                      \
    do {                                                                              \
        if (!(cond)) {                                                                \
            rt_log_check(__func__, #cond, (code));                                    \
            if (errcode_ret)                                                          \
                *errcode_ret = (code);                                                \
            return NULL;                                                              \
        }                                                                             \
    } while (0)

/* ---- objects ---- */
/* The header every object starts with (object.c). A pointer to an object is a pointer to
 * its header, and the loader finds the dispatch table through either. */
typedef struct rt_object {
    cl_icd_dispatch *dispatch;  /* ICD dispatch table (must be first) */
    uint32_t magic;             /* RT_MAGIC_* of its kind, RT_MAGIC_DEAD once destroyed */
    atomic_int refcount;        /* references (platform and devices: unused) */
} rt_object;

struct _cl_platform_id {
    rt_object obj;              /* dispatch pointer (first), RT_MAGIC_PLATFORM */
    cl_uint ndevices;           /* devices of the platform */
    cl_device_id *devices;      /* one per board of CLHLS_BOARDS */
};

/* The engines of a device, each running one command at a time on the device timeline
 * (event.c): the host link (DMA: reads, writes, maps, unmaps, their rectangular forms,
 * migrations) and the accelerator (kernels, and copies and fills, which use the device
 * memory port the kernels use). Commands of different engines overlap. */
typedef enum rt_engine {
    RT_ENGINE_HOST_LINK,
    RT_ENGINE_ACCELERATOR,
    RT_ENGINES,                 /* how many; also "no engine" (markers, barriers) */
} rt_engine;

struct _cl_device_id {
    rt_object obj;              /* dispatch pointer (first), RT_MAGIC_DEVICE */
    cl_platform_id platform;    /* owning platform */
    board_t *board;             /* the board this device simulates */
    cl_device_type type;        /* type reported (ACCELERATOR, or GPU when asked) */
    const rt_device_ops *ops;   /* device operations */
    rt_device_impl *impl;       /* the operations' state */
    char *name;                 /* CL_DEVICE_NAME */
    int worker_started;         /* the worker thread runs (rt_lock) */
    pthread_t worker;           /* executes this device's commands */
    struct rt_command *pending; /* commands not yet executed, in enqueue order, but for
                                   those parked behind their in-order predecessor (rt_lock) */
    struct rt_command *pending_tail; /* last of pending (rt_lock) */
    uint64_t submitted;         /* commands submitted to this device: the next one's seq (rt_lock) */
    uint64_t engine_free_ns[RT_ENGINES]; /* device timeline: END of each engine's last
                                   command (rt_lock) */
    atomic_uint built_units;    /* the most compute units of a program loaded on it so far
                                   (CL_DEVICE_MAX_COMPUTE_UNITS), 0 before the first */
};

/* Destructor callback of a context (clSetContextDestructorCallback). */
typedef struct rt_context_cb {
    struct rt_context_cb *next; /* next callback (called in reverse registration order) */
    void (CL_CALLBACK *fn)(cl_context, void *); /* the callback */
    void *data;                 /* its user data */
} rt_context_cb;

struct _cl_context {
    rt_object obj;              /* dispatch pointer (first), RT_MAGIC_CONTEXT, references */
    cl_uint ndevices;           /* devices in the context */
    cl_device_id *devices;      /* the devices */
    cl_context_properties *props; /* properties as given (0-terminated), NULL if none */
    size_t nprops;              /* entries in props including the terminator */
    void (CL_CALLBACK *notify)(const char *, const void *, size_t, void *); /* error callback */
    void *notify_data;          /* user data of notify */
    rt_context_cb *destructors; /* destructor callbacks, newest first (rt_lock) */
};

struct _cl_command_queue {
    rt_object obj;              /* dispatch pointer (first), RT_MAGIC_QUEUE, references */
    cl_context context;         /* retained */
    cl_device_id device;        /* device the commands run on */
    cl_command_queue_properties props; /* CL_QUEUE_* flags */
    cl_queue_properties *props_array; /* clCreateCommandQueueWithProperties' list as given
                                   (0-terminated), NULL if none */
    size_t nprops_array;        /* entries in props_array including the terminator */
    cl_event last;              /* in-order: last enqueued command, retained (rt_lock) */
    struct rt_command *newest_pending; /* in-order: its newest command not yet taken by the
                                   worker, NULL when none (rt_lock) */
    cl_event barrier;           /* out-of-order: last barrier, retained (rt_lock) */
    cl_event *since_barrier;    /* out-of-order: commands since the barrier, retained (rt_lock) */
    size_t nsince, capsince;    /* entries and capacity of since_barrier */
    size_t outstanding;         /* commands enqueued and not yet complete (rt_lock) */
    unsigned finishers;         /* threads in clFinish on it (rt_lock) */
    uint64_t t_done;            /* latest COMPLETE time of its finished commands (rt_lock) */
    unsigned serial;            /* 1 for the process's first queue, 2 for the next, ...
                                   (names it in CLHLS_TRACE's trace) */
};

/* One mapping of a buffer region (clEnqueueMapBuffer). */
typedef struct rt_mapping {
    struct rt_mapping *next;    /* next mapping of the buffer */
    void *ptr;                  /* pointer given to the host */
    size_t offset, size;        /* region of the buffer */
    cl_map_flags flags;         /* CL_MAP_* */
    int owned;                  /* ptr was allocated by the runtime */
    int stale;                  /* the map command failed: ptr holds no data of the
                                   buffer, and the unmap writes nothing back */
} rt_mapping;

/* Destructor callback of a memory object. */
typedef struct rt_mem_cb {
    struct rt_mem_cb *next;     /* next callback (called in reverse registration order) */
    void (CL_CALLBACK *fn)(cl_mem, void *); /* the callback */
    void *data;                 /* its user data */
} rt_mem_cb;

struct _cl_mem {
    rt_object obj;              /* dispatch pointer (first), RT_MAGIC_MEM, references */
    cl_context context;         /* retained */
    cl_mem_flags flags;         /* CL_MEM_* flags as created */
    size_t size;                /* bytes (a pipe: packet size times max packets) */
    void *host_ptr;             /* USE_HOST_PTR memory (or the parent's + offset), else NULL */
    void *alloc_host;           /* root with ALLOC_HOST_PTR: the runtime's host memory that
                                   maps point into, else NULL */
    cl_mem parent;              /* sub-buffer: the parent (retained), else NULL */
    size_t origin;              /* sub-buffer: offset in the parent */
    uint64_t *addr;             /* device address per context device (parent's + origin);
                                   NULL for a pipe, which has no device memory */
    int valid_dev;              /* context device index holding the newest data */
    pthread_mutex_t lock;       /* guards maps and valid_dev */
    rt_mapping *maps;           /* active mappings */
    cl_uint map_count;          /* number of active mappings */
    rt_mem_cb *callbacks;       /* destructor callbacks */
    cl_mem_properties *props;   /* clCreateBufferWithProperties' list as given
                                   (0-terminated), NULL if none */
    size_t nprops;              /* entries in props including the terminator */
    cl_uint pipe_packet_size;   /* pipe (clCreatePipe): bytes of a packet; 0 for a buffer */
    cl_uint pipe_max_packets;   /* pipe: packets it holds as created */
    int pipe_props;             /* pipe: clCreatePipe had a property list (an empty one) */
};

/* Intel's FPGA SDK buffer placement flags (cl_ext_intelfpga.h, cl_intelfpga_mem_banks),
 * which clCreateBuffer takes: a 3-bit field of cl_mem_flags at bit 16, channel n the
 * device's memory port n - 1, AUTO the round robin (docs/user-guide.md, "Memory
 * ports"). The Khronos headers lack them; host programs take them from Intel's header
 * or define them with these values. */
#ifndef CL_CHANNEL_AUTO_INTELFPGA
#define CL_CHANNEL_AUTO_INTELFPGA (0 << 16)
#define CL_CHANNEL_1_INTELFPGA (1 << 16)
#define CL_CHANNEL_2_INTELFPGA (2 << 16)
#define CL_CHANNEL_3_INTELFPGA (3 << 16)
#define CL_CHANNEL_4_INTELFPGA (4 << 16)
#define CL_CHANNEL_5_INTELFPGA (5 << 16)
#define CL_CHANNEL_6_INTELFPGA (6 << 16)
#define CL_CHANNEL_7_INTELFPGA (7 << 16)
#endif
#define RT_MEM_CHANNEL_MASK ((cl_mem_flags)CL_CHANNEL_7_INTELFPGA) /* the whole field */
#define RT_MEM_CHANNEL_SHIFT 16

/* CL_DEVICE_PIPE_MAX_PACKET_SIZE: the widest element the hardware moves in one
 * transfer, which bounds a pipe's packet as it bounds a channel's element; it matches
 * the compiler's HLS_MAX_WIDE_BITS / 8 (hls/ir.h). */
#define RT_PIPE_MAX_PACKET_SIZE 256u
/* CL_DEVICE_MAX_PIPE_ARGS: pipe arguments one kernel may declare. */
#define RT_MAX_PIPE_ARGS 16u

/* Kernel argument kinds from metadata.json. A pipe argument is a FIFO between two
 * kernels of the program, connected when the program was built: it has no bytes in the
 * argument area, and the host only names a pipe object of its packet size for it. */
typedef enum { RT_ARG_BUFFER, RT_ARG_SCALAR, RT_ARG_LOCAL, RT_ARG_PIPE } rt_arg_kind;

/* One kernel argument as described by metadata.json. */
typedef struct rt_arg_meta {
    char *name;                 /* argument name */
    char *type_name;            /* e.g. "float*" */
    cl_kernel_arg_address_qualifier address; /* CL_KERNEL_ARG_ADDRESS_* */
    cl_kernel_arg_access_qualifier access;   /* CL_KERNEL_ARG_ACCESS_* */
    cl_kernel_arg_type_qualifier type_qual;  /* CL_KERNEL_ARG_TYPE_* bits */
    rt_arg_kind kind;           /* buffer, scalar, local or pipe */
    size_t size;                /* bytes clSetKernelArg must pass (scalar), a pipe's packet
                                   size (0: the kernel does not use the pipe), pointer size
                                   else */
    size_t offset;              /* byte offset in the kernel's argument area (not a pipe's) */
    size_t local_max;           /* __local argument: the largest size the hardware holds */
    size_t pipe_depth;          /* pipe argument: packets its hardware FIFO holds (0: the
                                   kernel does not use the pipe, there is no FIFO) */
} rt_arg_meta;

/* printf (printf.c): the records of one printf call site (hls_printf_arg: the
 * layout the compiler wrote into the metadata). */
/* One printf call site: format id i + 1 is formats[i]. */
typedef struct rt_printf_format {
    char *format;               /* the format string */
    size_t bytes;               /* bytes of one record */
    unsigned nargs;             /* values in a record */
    hls_printf_arg *args;        /* their layout */
} rt_printf_format;

/* The printf description of a kernel that calls printf (metadata "printf"). */
typedef struct rt_printf_meta {
    size_t arg_offset;          /* the hidden buffer argument's offset in the argument area */
    size_t buffer_bytes;        /* bytes of the buffer the hardware was built for */
    size_t header_bytes;        /* bytes before the first record (word 0: bytes claimed) */
    unsigned nformats;          /* call sites */
    rt_printf_format *formats;  /* their formats */
    unsigned nstrings;          /* constant strings given to %s */
    char **strings;             /* their text, by id */
} rt_printf_meta;

/* CL_DEVICE_PRINTF_BUFFER_SIZE: HLS_PRINTF_BUFFER_BYTES (device_abi.h). */

/* One kernel as described by metadata.json. */
typedef struct rt_kernel_meta {
    char *name;                 /* kernel function name */
    rt_kernel_regs regs;        /* control/status/geometry registers and masks */
    unsigned ncounters;         /* counters */
    rt_counter *counters;       /* counter names and registers */
    unsigned nprobes;           /* occupancy probes ("probes"; none when absent) */
    rt_probe *probes;           /* their names, registers and capacities */
    unsigned nlsus;             /* global load-store units ("lsus"; none when absent) */
    rt_lsu *lsus;               /* what each does and where */
    size_t reqd_wg[3];          /* reqd_work_group_size, 0s when absent */
    size_t wg_hint[3];          /* work_group_size_hint, 0s when absent */
    char *attributes;           /* CL_KERNEL_ATTRIBUTES: the attributes above and
                                   vec_type_hint when the metadata has it */
    size_t max_wg;              /* largest work-group the hardware accepts */
    size_t local_mem;           /* bytes of __local arrays the kernel declares */
    int uniform_wg;             /* 1: global sizes must be multiples of the local size
                                   (OpenCL C 1.x or -cl-uniform-work-group-size) */
    cl_uint nargs;              /* arguments */
    rt_arg_meta *args;          /* argument descriptions */
    uint32_t arg_area_reg;      /* first register of the argument area */
    size_t arg_area_bytes;      /* its bytes (a multiple of 8) */
    rt_printf_meta *printf;     /* the kernel calls printf: its description; else NULL */
    int autorun;                /* 1: starts with the accelerator and runs for ever; the
                                   host does not see it (no cl_kernel, not among the
                                   program's kernel names) */
    cl_uint compute_units;      /* copies of its compute unit sharing its work-groups */
    cl_uint simd;               /* work-items a hardware work-item stands for in dimension 0
                                   (num_simd_work_items): the hardware's global and local
                                   sizes there are 1/simd of the NDRange's */
} rt_kernel_meta;

/* Build state of a program for one device. */
typedef struct rt_program_build {
    cl_build_status status;     /* CL_BUILD_* */
    char *log;                  /* build log, "" when none */
    rt_device_program *model;   /* the loaded accelerator model, NULL until built */
    char *entry_dir;            /* the build's cache entry, NULL until built */
    unsigned char *binary;      /* program binary (the packed entry): given to
                                   clCreateProgramWithBinary, or packed at the first
                                   CL_PROGRAM_BINARY_SIZES/BINARIES query; NULL if none */
    size_t binary_len;          /* its size */
    cl_program_binary_type type; /* CL_PROGRAM_BINARY_TYPE_*: what the device has */
    unsigned char *object;      /* compiled object or library: its LLVM bitcode */
    size_t object_len;          /* its size */
} rt_program_build;

struct _cl_program {
    rt_object obj;              /* dispatch pointer (first), RT_MAGIC_PROGRAM, references */
    cl_context context;         /* retained */
    char *source;               /* OpenCL C source ("" for a program from binaries) */
    int from_binary;            /* created by clCreateProgramWithBinary */
    int linked;                 /* created by clLinkProgram (no source, no binary given) */
    char *options;              /* options of the last build, "" when none */
    pthread_mutex_t lock;       /* guards builds and the fields below */
    rt_program_build *builds;   /* one per context device */
    cl_uint nkernels;           /* kernels in the built program */
    rt_kernel_meta *kernels;    /* their metadata */
    atomic_int kernel_objs;     /* cl_kernel objects alive (a rebuild is then invalid) */
};

/* Value of one kernel argument as set by clSetKernelArg. */
typedef struct rt_arg_value {
    int set;                    /* clSetKernelArg was called */
    cl_mem mem;                 /* buffer argument or NULL, or the pipe of a pipe argument
                                   (not retained by the kernel; retained in a command's
                                   snapshot) */
    size_t size;                /* size given */
} rt_arg_value;

struct _cl_kernel {
    rt_object obj;              /* dispatch pointer (first), RT_MAGIC_KERNEL, references */
    cl_program program;         /* retained */
    const rt_kernel_meta *meta; /* metadata (owned by the program) */
    pthread_mutex_t lock;       /* guards args */
    rt_arg_value *args;         /* one per argument */
    unsigned char *area;        /* the argument area as clSetKernelArg left it (values and
                                   __local sizes; buffer addresses are written at launch) */
};

/* Callback registered with clSetEventCallback. */
typedef struct rt_event_cb {
    struct rt_event_cb *next;   /* next callback */
    cl_int type;                /* CL_SUBMITTED, CL_RUNNING or CL_COMPLETE */
    int fired;                  /* already called */
    void (CL_CALLBACK *fn)(cl_event, cl_int, void *); /* the callback */
    void *data;                 /* its user data */
} rt_event_cb;

struct _cl_event {
    rt_object obj;              /* dispatch pointer (first), RT_MAGIC_EVENT, references */
    cl_context context;         /* retained */
    cl_command_queue queue;     /* retained; NULL for user events */
    cl_command_type type;       /* CL_COMMAND_* */
    cl_int status;              /* execution status (rt_lock) */
    int user_set;               /* user event: clSetUserEventStatus claimed it (rt_lock) */
    unsigned waiters;           /* threads in rt_event_wait for it (rt_lock) */
    int profiling;              /* the queue profiles */
    uint64_t t_queued, t_submit, t_start, t_end, t_complete; /* profiling times, ns: each
                                   written before the status change that publishes it, read
                                   only once that status is seen under rt_lock */
    rt_event_cb *callbacks;     /* registered callbacks (rt_lock) */
    unsigned ncounters;         /* hardware counters read after a kernel */
    rt_counter_value *counters; /* their values */
    uint64_t sim_cycles;        /* kernel: cycles the simulation ran (0 for other commands) */
};

/* ---- the global state ---- */
extern cl_icd_dispatch rt_dispatch;         /* dispatch.c */
extern pthread_mutex_t rt_lock;             /* object.c */
extern pthread_cond_t rt_cond;
cl_platform_id rt_platform(void);           /* initialises on first use */
/* Internal versions of the loader-visible exports (the table must not point to the
 * exported symbols, which the loader's own symbols of the same name could interpose). */
cl_int CL_API_CALL rt_get_platform_info(cl_platform_id platform, cl_platform_info name,
                                        size_t size, void *value, size_t *size_ret);
void *CL_API_CALL rt_get_extension_function_address(const char *name);
void *CL_API_CALL rt_get_extension_function_address_for_platform(cl_platform_id platform,
                                                                 const char *name);

/* ---- the object base (object.c) ---- */
/* A new object of kind magic: the dispatch table, one reference. */
void rt_object_init(rt_object *o, uint32_t magic);
/* 1 when o is a live object of kind magic (NULL is not). */
int rt_valid_object(const void *o, uint32_t magic);
void rt_retain(void *o);
/* Drops a reference; the last one destroys the object (whatever its kind) and drops the
 * references it held. */
void rt_release(void *o);
cl_uint rt_refcount(const void *o);
/* clRetain* and clRelease* (func: the entry point, for CLHLS_VERBOSE): validate as kind
 * magic (invalid: the error otherwise), then retain or release. */
cl_int rt_api_retain(const char *func, void *o, uint32_t magic, cl_int invalid);
cl_int rt_api_release(const char *func, void *o, uint32_t magic, cl_int invalid);
static inline int rt_valid_context(cl_context c) { return rt_valid_object(c, RT_MAGIC_CONTEXT); }
static inline int rt_valid_queue(cl_command_queue q) { return rt_valid_object(q, RT_MAGIC_QUEUE); }
static inline int rt_valid_mem(cl_mem m) { return rt_valid_object(m, RT_MAGIC_MEM); }
/* A memory object is a buffer (or sub-buffer) or a pipe, which has no storage the host
 * or a buffer command can reach. */
static inline int rt_mem_is_pipe(cl_mem m) { return m->pipe_packet_size != 0; }
static inline int rt_valid_buffer(cl_mem m) { return rt_valid_mem(m) && !rt_mem_is_pipe(m); }
static inline int rt_valid_program(cl_program p) { return rt_valid_object(p, RT_MAGIC_PROGRAM); }
static inline int rt_valid_kernel(cl_kernel k) { return rt_valid_object(k, RT_MAGIC_KERNEL); }
static inline int rt_valid_event(cl_event e) { return rt_valid_object(e, RT_MAGIC_EVENT); }
/* A device of the platform (platform.c: devices are checked against its list). */
int rt_valid_device(cl_device_id d);
int rt_context_device_index(cl_context c, cl_device_id d); /* -1 when absent */
/* The index of q's device among its context's devices. */
int rt_queue_device_index(cl_command_queue q);
/* 1 when p has an executable for some device; p->lock held. */
int rt_program_built(cl_program p);
/* The kernels of the program the host sees (not the autorun ones); p->lock held. */
cl_uint rt_program_host_kernels(cl_program p);
/* The buffer a sub-buffer is part of; a buffer's own root is itself. */
cl_mem rt_mem_root(cl_mem m);
/* Validates a wait list for a command of context ctx. */
cl_int rt_check_wait_list(cl_context ctx, cl_uint n, const cl_event *list);
/* Frees what rt_metadata_load made (metadata.c, which the base uses to destroy a
 * program). */
void rt_metadata_free(rt_kernel_meta *kernels, cl_uint nkernels);

/* ---- commands and events: the scheduler (sched.c) ---- */
typedef enum {
    RT_CMD_NONE,     /* marker, barrier, wait-for-events */
    RT_CMD_READ,     /* device -> host */
    RT_CMD_WRITE,    /* host -> device */
    RT_CMD_COPY,     /* device -> device */
    RT_CMD_FILL,     /* pattern fill */
    RT_CMD_MAP,      /* make a region visible to the host */
    RT_CMD_UNMAP,    /* give a region back */
    RT_CMD_KERNEL,   /* NDRange */
    RT_CMD_MIGRATE,  /* move buffers to the queue's device */
    RT_CMD_READ_RECT,  /* device -> host, 2D/3D region */
    RT_CMD_WRITE_RECT, /* host -> device, 2D/3D region */
    RT_CMD_COPY_RECT,  /* device -> device, 2D/3D region */
} rt_cmd_kind;

/* The region of a rectangular command: side 0 is the command's buffer (mem: the read
 * source, the write or copy destination), side 1 the host memory (ptr) or the copy
 * source (src). Pitches are resolved (never 0). */
typedef struct rt_rect {
    size_t region[3];           /* bytes per row, rows per slice, slices */
    size_t offset[2];           /* byte offset of the first row, per side */
    size_t row[2];              /* row pitch, per side */
    size_t slice[2];            /* slice pitch, per side */
} rt_rect;

/* A command waiting for (or being executed by) its device's worker. */
typedef struct rt_command {
    struct rt_command *next;    /* next in the device's pending list */
    struct rt_command *parked;  /* its in-order queue's next command, kept out of the
                                   pending list until this one leaves it (rt_lock) */
    uint64_t seq;               /* its place in the device's submission order */
    rt_cmd_kind kind;           /* what to do */
    cl_event event;             /* the command's event (retained) */
    cl_uint ndeps;              /* events of the wait list (retained) */
    cl_event *deps;             /* the wait list */
    cl_mem mem;                 /* buffer read/written/mapped/destination (retained) */
    cl_mem src;                 /* copy source (retained) */
    size_t offset, src_offset, size; /* byte ranges */
    void *ptr;                  /* host memory of read/write */
    unsigned char pattern[128]; /* fill pattern */
    size_t pattern_size;        /* its size */
    rt_mapping *mapping;        /* map/unmap: the mapping */
    cl_uint nmems;              /* migrate: buffers (retained) */
    cl_mem *mems;               /* migrate: the buffers */
    cl_mem_migration_flags migrate_flags; /* migrate: CL_MIGRATE_MEM_OBJECT_* */
    rt_rect rect;               /* rectangular read/write/copy: the region */
    cl_kernel kernel;           /* NDRange: kernel (retained) */
    rt_arg_value *args;         /* NDRange: argument snapshot (mems retained) */
    unsigned char *area;        /* NDRange: snapshot of the kernel's argument area */
    cl_uint work_dim;           /* NDRange geometry */
    size_t global[3], local[3], offset3[3]; /* sizes and global offset */
} rt_command;

/* Starts d's worker thread unless it runs; 0 on success. */
int rt_device_start_worker(cl_device_id d);
/* Creates an event for a command on q. */
cl_event rt_event_create(cl_context ctx, cl_command_queue q, cl_command_type type);
/* Moves an event to status (forward only) and runs the callbacks that became due. */
void rt_event_set_status(cl_event e, cl_int status);
/* Allocates a command of kind for q with its event and wait list; NULL on no memory. */
rt_command *rt_command_new(cl_command_queue q, rt_cmd_kind kind, cl_command_type type,
                           cl_uint nwait, const cl_event *wait);
void rt_command_free(rt_command *c);
/* Hands the command to the worker; returns its event in *event_out (retained for the
 * caller) when event_out is not NULL; waits for it when blocking. Returns CL_SUCCESS,
 * or CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST when a blocking command failed. */
cl_int rt_command_submit(rt_command *c, int blocking, cl_event *event_out);
/* Waits until e is complete or failed; returns its status. */
cl_int rt_event_wait(cl_event e);
/* e's status, and (when final and t_complete is not NULL) its COMPLETE time. */
cl_int rt_event_status(cl_event e, uint64_t *t_complete);
/* Registers cb (type, fn, data set) on e; calls it at once when e is already there. */
void rt_event_add_callback(cl_event e, rt_event_cb *cb);
/* Sets a user event's status (CL_COMPLETE or an error) once: 0, or -1 when it was set. */
int rt_user_event_set(cl_event e, cl_int status);
/* Waits until every command of q has finished (clFinish). */
void rt_queue_finish(cl_command_queue q);

/* ---- the memory executor (exec_mem.c) ---- */
/* Allocates a buffer of size bytes on every device of c (addresses in addr, one per
 * device), inside memory port `port`'s range, or where each device's policy says (-1),
 * and writes host_ptr's bytes (when not NULL) to the first; 0, or -1 with nothing
 * allocated. */
int rt_mem_place(cl_context c, size_t size, int port, const void *host_ptr, uint64_t *addr);
/* Makes the newest data of m available on context device di (migrates). */
int rt_mem_acquire(cl_mem m, int di);
/* After a command on device di wrote m: records it and syncs USE_HOST_PTR memory. */
void rt_mem_written(cl_mem m, int di);
/* Executes a buffer command (read, write, copy, fill, map, unmap, migrate); returns
 * CL_COMPLETE or a negative status and the modelled device time in *ns. */
cl_int rt_mem_execute(rt_command *c, uint64_t *ns);
/* A buffer command that will not run (its wait list failed): a map leaves a mapping
 * with no data (its unmap writes nothing back), an unmap frees its mapping. */
void rt_mem_cancel(rt_command *c);
/* Called when a command is freed: an unmap that never reached the device (enqueueing
 * it failed) gives its mapping back to the buffer. */
void rt_mem_command_free(rt_command *c);

/* ---- program binaries (binary.c) ---- */
/* Packs the cache entry at entry_dir, built for board, into a new blob (rt_free). */
int rt_binary_pack(const char *entry_dir, const char *board, unsigned char **blob,
                   size_t *len, char *err, size_t errlen);
/* Packs LLVM bitcode, a compiled object or a library (type), into a new blob. */
int rt_binary_pack_object(const unsigned char *bitcode, size_t len, const char *board,
                          cl_program_binary_type type, unsigned char **blob, size_t *blob_len,
                          char *err, size_t errlen);
/* 0 when blob is a whole, uncorrupted program binary for board, and its type in *type
 * (when not NULL); else -1 and why. */
int rt_binary_check(const unsigned char *blob, size_t len, const char *board,
                    cl_program_binary_type *type, char *err, size_t errlen);
/* The bitcode of a checked object or library blob (rt_free), or NULL. */
unsigned char *rt_binary_object(const unsigned char *blob, size_t len, size_t *bitcode_len);
/* Unpacks a checked blob into the build cache; returns the entry directory (rt_free)
 * or NULL and why. */
char *rt_binary_unpack(const unsigned char *blob, size_t len, char *err, size_t errlen);

/* ---- the compiler in a child process (compiler.c) ---- */
/* A compiler job: a scratch directory in the build cache for the child's inputs and
 * its result file, removed by rt_job_end. */
typedef struct rt_job {
    char dir[4096];             /* the scratch directory, "" when none */
} rt_job;

#define RT_JOB_DIED 1000        /* rt_job_result.status: no result (crash, time-out) */

/* What the child reported (docs/architecture.md, "Compiling out of process"). */
typedef struct rt_job_result {
    int status;                 /* the child's hls_status (0 = success, HLS_ERR_OPTIONS =
                                   -3 for bad options, ...) or RT_JOB_DIED */
    char *log;                  /* the build log, or why the child gave none (rt_free) */
    char *entry;                /* cache entry directory of a build, NULL if none */
    char *output;               /* output file of a compilation, NULL if none */
} rt_job_result;

/* Finds the clhls tool: $CLHLS_COMPILER, the build tree's tools/clhls next to a
 * build-tree ICD, bin/clhls of an installed tree; 0, or -1 and why. */
int rt_compiler_path(char *buf, size_t len, char *err, size_t errlen);
/* The child's time limit in seconds ($CLHLS_COMPILE_TIMEOUT, default 1800; 0 = none). */
double rt_compiler_timeout(void);
int rt_job_begin(rt_job *j, char *err, size_t errlen);
void rt_job_end(rt_job *j);
/* The path of name inside the job's directory, in buf. */
char *rt_job_path(rt_job *j, const char *name, char *buf, size_t len);
/* Writes a file (name may have directories) into the job's directory; 0 on success. */
int rt_job_write(rt_job *j, const char *name, const void *data, size_t len);
/* Runs `clhls ARGS... --result FILE --scratch DIR` and fills r (a failure to run, a crash or a
 * time-out is r->status RT_JOB_DIED with the reason in r->log). CL_SUCCESS, or
 * CL_OUT_OF_HOST_MEMORY. */
cl_int rt_job_run(rt_job *j, const char *const args[], rt_job_result *r);
void rt_job_result_free(rt_job_result *r);

/* ---- waveforms (waves.c) ---- */
/* CLHLS_WAVES, CLHLS_WAVES_KERNEL and CLHLS_WAVES_CYCLES, read once (on: 0 when
 * CLHLS_WAVES is not set; a malformed window is reported on stderr and ignored). */
const rt_waves *rt_waves_config(void);
/* 1 when a program with these kernels is to be recorded: CLHLS_WAVES is set and
 * CLHLS_WAVES_KERNEL is unset or names one of them. */
int rt_waves_wanted(const rt_kernel_meta *kernels, cl_uint nkernels);
/* The traced model of cache entry `entry` (ENTRY/waves/model.so), built by the clhls
 * tool in a child process when there is none: 0 and its path, or -1 and why. */
int rt_waves_model(const char *entry, char *so, size_t so_len, char *err, size_t errlen);
/* The next program's waveform file: CLHLS_WAVES for the first, then FILE-2.fst, ... */
void rt_waves_next_file(char *path, size_t len);
/* Runs `clhls ARGS...` (waves-model, threads-model) in a child process for a variant of
 * a program's model (`name` in messages): 0 and the path of its model.so, or -1 and
 * why (the end of the tool's log). */
int rt_model_variant_build(const char *const args[], const char *name, char *so,
                           size_t so_len, char *err, size_t errlen);

/* ---- the multi-threaded model (sim_threads.c) ---- */
/* Whether the program of cache entry `entry` runs on its multi-threaded model
 * (CLHLS_SIM_THREADS=N, N >= 2, read once with CLHLS_SIM_THREADS_MIN): 1 and the path
 * of ENTRY/threadsN/model.so, built by the clhls tool when missing; 0 for the normal
 * model (the variable unset, 0 or 1, a design below the threshold, a failed build: a
 * message on stderr says why, once per reason). */
int rt_sim_threads_model(const char *entry, char *so, size_t so_len);

/* ---- the kernel executor (exec_kernel.c) ---- */
/* A kernel command between its start on the device and its end. */
typedef struct rt_kernel_run rt_kernel_run;
/* What a kernel's run left for its event. */
typedef struct rt_kernel_outcome {
    uint64_t ns;                /* modelled duration: busy cycles at the board clock */
    uint64_t sim_cycles;        /* cycles the simulation ran */
    unsigned ncounters;         /* counters read */
    rt_counter_value *counters; /* their values (rt_free; NULL when none were read) */
} rt_kernel_outcome;
/* The accelerator configuration (loaded program) a kernel command runs on. */
rt_device_program *rt_kernel_model(const rt_command *c);
/* Its compute unit: the kernel's index in its program. */
unsigned rt_kernel_unit(const rt_command *c);
/* Prepares c's NDRange (argument area, printf buffer) and starts it on its compute unit
 * while other kernels of the program may run. CL_SUCCESS and *run, or the failed
 * command's status (reported, nothing to finish; *failed, zeroed by the caller, holds
 * what was read). */
cl_int rt_kernel_start(rt_command *c, rt_kernel_run **run, rt_kernel_outcome *failed);
/* The accelerator's cycle count at the run's start and at its end (once ended). */
void rt_kernel_cycles(const rt_kernel_run *run, uint64_t *start, uint64_t *end);
/* Steps model's accelerator on d until a started kernel ends: its compute unit in *unit,
 * its RT_DEV_* outcome returned; or for max_cycles (0: no limit), then RT_DEV_RUNNING
 * when none ended. */
int rt_kernel_wait(cl_device_id d, rt_device_program *model, uint64_t max_cycles,
                   unsigned *unit);
/* The accelerator's cycle count. */
uint64_t rt_kernel_clock(cl_device_id d, rt_device_program *model);
/* Completes a run the device reported ended with rc (an RT_DEV_* code): printf output,
 * counters and duration in *out, `clhls report`'s record, CLHLS_VERBOSE, the failure
 * message. Frees run; returns the command's final status. */
cl_int rt_kernel_finish(rt_kernel_run *run, int rc, rt_kernel_outcome *out);

/* ---- metadata.json (metadata.c) ---- */
/* Parses metadata.json into kernels (rt_metadata_free); on failure returns -1 and
 * writes err. */
int rt_metadata_load(const char *path, rt_kernel_meta **kernels, cl_uint *nkernels,
                     char *err, size_t errlen);

/* ---- printf (printf.c) ---- */
struct cJSON;
/* Reads a kernel's "printf" object; the hidden buffer argument is at arg_offset. */
int rt_printf_load(const struct cJSON *printf_json, size_t arg_offset, rt_printf_meta **out,
                   char *err, size_t errlen);
void rt_printf_free(rt_printf_meta *m);
/* Formats the records of one NDRange (data: the len bytes after the buffer's header;
 * claimed: the header's count of bytes claimed) to stdout and flushes it; says on
 * stderr when records were dropped. 0, or -1 when out of host memory. */
int rt_printf_output(const rt_printf_meta *m, const char *kernel, const unsigned char *data,
                     size_t len, uint64_t claimed, const uint64_t global[3],
                     const uint64_t offset[3]);

#endif
