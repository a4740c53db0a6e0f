/* What the devices did, written for the user when asked through the environment:
 *
 * CLHLS_TRACE=FILE: a trace in the Chrome Trace Event Format (the JSON object form that
 * ui.perfetto.dev and chrome://tracing open). One complete event ("ph": "X") per
 * command, from START to END of its event on the device timeline (sched.c), ts and dur
 * in microseconds; pid = the device (1 for the platform's first), tid = the engine
 * (1 host link, 2 accelerator, 3 for what takes no engine: markers, barriers and
 * commands whose wait list failed; kernels running while another kernel of the
 * accelerator runs go on lanes of their own, tid 4, 5, ..., so that no track holds
 * overlapping events), each named by a metadata event ("ph": "M"). args
 * hold the queue, the four profiling times in ns, the status, a kernel's NDRange, its
 * hardware counters by name and numbers derived from them, a transfer's bytes.
 *
 * CLHLS_COUNTERS=FILE: {"format": 1, "kernels": [...]}, every kernel run in the order
 * the runs ended: kernel, cache entry, device, board, NDRange, start/end ns, cycles
 * simulated, status, counters.
 *
 * The device workers record each command before its final status is published, so a
 * command the host saw finish is in the files. The files are written once, when the
 * process exits normally (atexit, also without releasing anything), or when
 * rt_trace_flush is called; commands still running then are left out. A write goes to
 * a temporary file renamed over FILE, so a reader sees a whole file or none. Nothing
 * here fails a command: out of memory drops a record, an unwritable path is said once
 * on stderr. */
#define _GNU_SOURCE
#include "trace.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fsutil.h"

/* The thread (tid) of a command that used no engine; kernel lane k is tid
 * TID_NO_ENGINE + k (lanes beyond MAX_LANE share its track). */
#define TID_NO_ENGINE (RT_ENGINES + 1)
#define MAX_LANE (64 - TID_NO_ENGINE)

/* A device that has events in the trace, named by metadata events. */
typedef struct traced_device {
    struct traced_device *next;
    cl_device_id device;        /* the device */
    int pid;                    /* its process id in the trace */
    uint64_t tids_named;        /* bit t-1: thread t has its thread_name event */
} traced_device;

static pthread_once_t start_once = PTHREAD_ONCE_INIT;
static char *trace_path;        /* CLHLS_TRACE, NULL when unset */
static char *counters_path;     /* CLHLS_COUNTERS, NULL when unset */
static pid_t owner;             /* the process that reads the environment (a forked child
                                   does not write its parent's files) */

static pthread_mutex_t trace_lock = PTHREAD_MUTEX_INITIALIZER;
static cJSON *trace_events;     /* the traceEvents array (trace_lock) */
static cJSON *kernel_runs;      /* the kernels array of CLHLS_COUNTERS (trace_lock) */
static traced_device *devices;  /* devices seen (trace_lock) */
static int written;             /* the files were written: record nothing more (trace_lock) */

static char *env_path(const char *name)
{
    const char *v = getenv(name);
    return v && *v ? strdup(v) : NULL;
}

static void write_at_exit(void) { rt_trace_flush(); }

static void start(void)
{
    trace_path = env_path("CLHLS_TRACE");
    counters_path = env_path("CLHLS_COUNTERS");
    owner = getpid();
    if (trace_path || counters_path)
        atexit(write_at_exit);
}

void rt_trace_start(void) { pthread_once(&start_once, start); }

/* ---- naming ---- */

static const char *command_type_name(cl_command_type t)
{
    switch (t) {
    case CL_COMMAND_NDRANGE_KERNEL: return "NDRANGE_KERNEL";
    case CL_COMMAND_TASK: return "TASK";
    case CL_COMMAND_READ_BUFFER: return "READ_BUFFER";
    case CL_COMMAND_WRITE_BUFFER: return "WRITE_BUFFER";
    case CL_COMMAND_COPY_BUFFER: return "COPY_BUFFER";
    case CL_COMMAND_FILL_BUFFER: return "FILL_BUFFER";
    case CL_COMMAND_MAP_BUFFER: return "MAP_BUFFER";
    case CL_COMMAND_UNMAP_MEM_OBJECT: return "UNMAP_MEM_OBJECT";
    case CL_COMMAND_MARKER: return "MARKER";
    case CL_COMMAND_BARRIER: return "BARRIER";
    case CL_COMMAND_READ_BUFFER_RECT: return "READ_BUFFER_RECT";
    case CL_COMMAND_WRITE_BUFFER_RECT: return "WRITE_BUFFER_RECT";
    case CL_COMMAND_COPY_BUFFER_RECT: return "COPY_BUFFER_RECT";
    case CL_COMMAND_MIGRATE_MEM_OBJECTS: return "MIGRATE_MEM_OBJECTS";
    default: return "COMMAND";
    }
}

static const char *kind_verb(rt_cmd_kind kind, cl_command_type type)
{
    switch (kind) {
    case RT_CMD_READ: return "read";
    case RT_CMD_WRITE: return "write";
    case RT_CMD_COPY: return "copy";
    case RT_CMD_FILL: return "fill";
    case RT_CMD_MAP: return "map";
    case RT_CMD_UNMAP: return "unmap";
    case RT_CMD_MIGRATE: return "migrate";
    case RT_CMD_READ_RECT: return "read rect";
    case RT_CMD_WRITE_RECT: return "write rect";
    case RT_CMD_COPY_RECT: return "copy rect";
    case RT_CMD_KERNEL: return "kernel";
    case RT_CMD_NONE: break;
    }
    return type == CL_COMMAND_MARKER ? "marker" : "barrier";
}

/* Bytes a buffer command moves or writes; 0 when it has no size of its own (unmap:
 * its mapping may be gone, migrate, markers). */
static uint64_t command_bytes(const rt_command *c)
{
    switch (c->kind) {
    case RT_CMD_READ:
    case RT_CMD_WRITE:
    case RT_CMD_COPY:
    case RT_CMD_FILL:
    case RT_CMD_MAP:
        return c->size;
    case RT_CMD_READ_RECT:
    case RT_CMD_WRITE_RECT:
    case RT_CMD_COPY_RECT:
        return (uint64_t)c->rect.region[0] * c->rect.region[1] * c->rect.region[2];
    default:
        return 0;
    }
}

/* "4 MiB", "1.5 KiB", "100 B". */
static void format_bytes(uint64_t bytes, char *buf, size_t len)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = (double)bytes;
    unsigned u = 0;
    while (v >= 1024.0 && u + 1 < sizeof units / sizeof units[0]) {
        v /= 1024.0;
        u++;
    }
    snprintf(buf, len, "%.4g %s", v, units[u]);
}

/* What a person recognises: "kernel vadd", "write 4 MiB", "migrate 2 buffers". */
static void command_title(const rt_command *c, char *buf, size_t len)
{
    const char *verb = kind_verb(c->kind, c->event->type);
    uint64_t bytes = command_bytes(c);
    char size[32];
    if (c->kind == RT_CMD_KERNEL) {
        snprintf(buf, len, "kernel %s", c->kernel->meta->name);
    } else if (c->kind == RT_CMD_MIGRATE) {
        snprintf(buf, len, "migrate %u buffer%s", c->nmems, c->nmems == 1 ? "" : "s");
    } else if (bytes) {
        format_bytes(bytes, size, sizeof size);
        snprintf(buf, len, "%s %s", verb, size);
    } else {
        snprintf(buf, len, "%s", verb);
    }
}

static const char *status_name(cl_int status)
{
    return status == CL_COMPLETE ? "CL_COMPLETE" : rt_error_name(status);
}

/* ---- records ---- */

static cJSON *size_array(const size_t v[3], cl_uint dims)
{
    cJSON *a = cJSON_CreateArray();
    for (cl_uint i = 0; a && i < dims && i < 3; i++)
        cJSON_AddItemToArray(a, cJSON_CreateNumber((double)v[i]));
    return a;
}

static void add_ndrange(cJSON *o, const rt_command *c)
{
    cJSON_AddNumberToObject(o, "work_dim", c->work_dim);
    cJSON_AddItemToObject(o, "global", size_array(c->global, c->work_dim));
    cJSON_AddItemToObject(o, "local", size_array(c->local, c->work_dim));
    cJSON_AddItemToObject(o, "offset", size_array(c->offset3, c->work_dim));
}

static cJSON *counters_object(cl_event e)
{
    cJSON *o = cJSON_CreateObject();
    for (unsigned i = 0; o && i < e->ncounters; i++)
        cJSON_AddNumberToObject(o, e->counters[i].name, (double)e->counters[i].value);
    return o;
}

/* A counter's value, or -1 when the kernel has none of that name. */
static double counter(cl_event e, const char *name)
{
    for (unsigned i = 0; i < e->ncounters; i++)
        if (!strcmp(e->counters[i].name, name))
            return (double)e->counters[i].value;
    return -1;
}

/* Rates per busy cycle: work-items, memory requests, bytes (counters named *bytes*,
 * else the requests times the board's memory word: a request moves at most one word),
 * the share of cycles stalled on memory. */
static cJSON *derived_object(cl_device_id d, cl_event e)
{
    cJSON *o = cJSON_CreateObject();
    double busy = counter(e, "busy_cycles");
    if (!o || busy <= 0)
        return o;
    double items = counter(e, "work_items"), stall = counter(e, "stall_mem_cycles");
    double reads = counter(e, "mem_read_requests"), writes = counter(e, "mem_write_requests");
    double bytes = 0;
    int have_bytes = 0;
    for (unsigned i = 0; i < e->ncounters; i++) {
        if (strstr(e->counters[i].name, "bytes")) {
            bytes += (double)e->counters[i].value;
            have_bytes = 1;
        }
    }
    if (items >= 0)
        cJSON_AddNumberToObject(o, "work_items_per_cycle", items / busy);
    if (reads >= 0 && writes >= 0)
        cJSON_AddNumberToObject(o, "mem_requests_per_cycle", (reads + writes) / busy);
    if (have_bytes)
        cJSON_AddNumberToObject(o, "bytes_per_cycle", bytes / busy);
    else if (reads >= 0 && writes >= 0)
        cJSON_AddNumberToObject(o, "mem_bytes_per_cycle",
                                (reads + writes) * (d->board->mem_width_bits / 8) / busy);
    if (stall >= 0)
        cJSON_AddNumberToObject(o, "stall_mem_fraction", stall / busy);
    return o;
}

/* The complete event of command c. */
static cJSON *command_event(cl_device_id d, const rt_command *c, int tid, cl_int status)
{
    cl_event e = c->event;
    char title[256];
    command_title(c, title, sizeof title);
    cJSON *ev = cJSON_CreateObject();
    if (!ev)
        return NULL;
    cJSON_AddStringToObject(ev, "name", title);
    cJSON_AddStringToObject(ev, "cat", command_type_name(e->type));
    cJSON_AddStringToObject(ev, "ph", "X");
    cJSON_AddNumberToObject(ev, "ts", (double)e->t_start / 1000.0);
    cJSON_AddNumberToObject(ev, "dur", (double)(e->t_end - e->t_start) / 1000.0);
    cJSON_AddNumberToObject(ev, "pid", 0); /* set when appended */
    cJSON_AddNumberToObject(ev, "tid", tid);
    cJSON *args = cJSON_AddObjectToObject(ev, "args");
    char queue[64];
    snprintf(queue, sizeof queue, "queue %u (%s)", e->queue->serial,
             e->queue->props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE ? "out of order"
                                                                       : "in order");
    cJSON_AddStringToObject(args, "queue", queue);
    cJSON_AddStringToObject(args, "status", status_name(status));
    cJSON_AddNumberToObject(args, "queued_ns", (double)e->t_queued);
    cJSON_AddNumberToObject(args, "submit_ns", (double)e->t_submit);
    cJSON_AddNumberToObject(args, "start_ns", (double)e->t_start);
    cJSON_AddNumberToObject(args, "end_ns", (double)e->t_end);
    uint64_t bytes = command_bytes(c);
    if (bytes)
        cJSON_AddNumberToObject(args, "bytes", (double)bytes);
    if (c->kind == RT_CMD_KERNEL) {
        add_ndrange(args, c);
        cJSON_AddNumberToObject(args, "simulated_cycles", (double)e->sim_cycles);
        cJSON_AddItemToObject(args, "counters", counters_object(e));
        cJSON_AddItemToObject(args, "derived", derived_object(d, e));
    }
    return ev;
}

/* The CLHLS_COUNTERS entry of kernel command c on d. */
static cJSON *kernel_run(cl_device_id d, const rt_command *c, cl_int status)
{
    cl_event e = c->event;
    cl_kernel k = c->kernel;
    int di = rt_context_device_index(e->queue->context, d);
    const char *entry = di >= 0 ? k->program->builds[di].entry_dir : NULL;
    cJSON *run = cJSON_CreateObject();
    if (!run)
        return NULL;
    cJSON_AddStringToObject(run, "kernel", k->meta->name);
    cJSON_AddStringToObject(run, "cache_entry", entry ? entry : "");
    cJSON_AddStringToObject(run, "device", d->name);
    cJSON_AddStringToObject(run, "board", d->board->name);
    cJSON_AddNumberToObject(run, "queue", e->queue->serial);
    add_ndrange(run, c);
    cJSON_AddNumberToObject(run, "start_ns", (double)e->t_start);
    cJSON_AddNumberToObject(run, "end_ns", (double)e->t_end);
    cJSON_AddNumberToObject(run, "simulated_cycles", (double)e->sim_cycles);
    cJSON_AddStringToObject(run, "status", status_name(status));
    cJSON_AddBoolToObject(run, "ok", status == CL_COMPLETE);
    cJSON_AddItemToObject(run, "counters", counters_object(e));
    cJSON_AddItemToObject(run, "derived", derived_object(d, e));
    return run;
}

static cJSON *metadata_event(const char *what, int pid, int tid, const char *name)
{
    cJSON *m = cJSON_CreateObject();
    if (!m)
        return NULL;
    cJSON_AddStringToObject(m, "name", what);
    cJSON_AddStringToObject(m, "ph", "M");
    cJSON_AddNumberToObject(m, "pid", pid);
    cJSON_AddNumberToObject(m, "tid", tid);
    cJSON_AddStringToObject(cJSON_AddObjectToObject(m, "args"), "name", name);
    return m;
}

/* d's pid; names d and thread tid with metadata events the first time. trace_lock
 * held. */
static int device_pid(cl_device_id d, int tid)
{
    static const char *const thread_names[] = {
        [RT_ENGINE_HOST_LINK] = "host link (reads, writes, maps, migrations)",
        [RT_ENGINE_ACCELERATOR] = "accelerator (kernels, copies, fills)",
        [RT_ENGINES] = "no engine (markers, barriers, commands not run)",
    };
    traced_device *t = devices;
    while (t && t->device != d)
        t = t->next;
    if (!t) {
        t = calloc(1, sizeof *t);
        if (!t)
            return 0;
        cl_platform_id p = d->platform;
        for (cl_uint i = 0; i < p->ndevices; i++)
            if (p->devices[i] == d)
                t->pid = (int)i + 1;
        t->device = d;
        t->next = devices;
        devices = t;
        char name[512];
        snprintf(name, sizeof name, "device %d: %s, %g MHz", t->pid, d->name,
                 d->board->clock_mhz);
        cJSON_AddItemToArray(trace_events, metadata_event("process_name", t->pid, 0, name));
        cJSON *order = metadata_event("process_sort_index", t->pid, 0, "");
        if (order) {
            cJSON *args = cJSON_GetObjectItem(order, "args");
            cJSON_DeleteItemFromObject(args, "name");
            cJSON_AddNumberToObject(args, "sort_index", t->pid);
            cJSON_AddItemToArray(trace_events, order);
        }
    }
    if (!(t->tids_named & (uint64_t)1 << (tid - 1))) {
        t->tids_named |= (uint64_t)1 << (tid - 1);
        char lane[96];
        snprintf(lane, sizeof lane, "accelerator, kernel lane %d (kernels at once)",
                 tid - TID_NO_ENGINE);
        cJSON_AddItemToArray(trace_events,
                             metadata_event("thread_name", t->pid, tid,
                                            tid <= TID_NO_ENGINE ? thread_names[tid - 1] : lane));
    }
    return t->pid;
}

void rt_trace_command(cl_device_id d, const rt_command *c, rt_engine engine, unsigned lane,
                      cl_int status)
{
    rt_trace_start();
    if (!trace_path && !counters_path)
        return;
    if (lane > MAX_LANE)
        lane = MAX_LANE;
    int tid = engine == RT_ENGINES ? TID_NO_ENGINE
              : lane             ? TID_NO_ENGINE + (int)lane
                                 : (int)engine + 1;
    /* Built without the lock, appended under it. */
    cJSON *run = counters_path && c->kind == RT_CMD_KERNEL ? kernel_run(d, c, status) : NULL;
    cJSON *ev = trace_path ? command_event(d, c, tid, status) : NULL;
    pthread_mutex_lock(&trace_lock);
    if (!written && ev && (trace_events || (trace_events = cJSON_CreateArray()))) {
        cJSON_SetNumberValue(cJSON_GetObjectItem(ev, "pid"), device_pid(d, tid));
        cJSON_AddItemToArray(trace_events, ev);
        ev = NULL;
    }
    if (!written && run && (kernel_runs || (kernel_runs = cJSON_CreateArray()))) {
        cJSON_AddItemToArray(kernel_runs, run);
        run = NULL;
    }
    pthread_mutex_unlock(&trace_lock);
    cJSON_Delete(ev);
    cJSON_Delete(run);
}

/* Writes root to path through a temporary file in its directory; what (the variable)
 * names it in the message when that fails. */
static void write_file(const char *what, const char *path, cJSON *root)
{
    char *text = root ? cJSON_Print(root) : NULL;
    const char *why = NULL;
    if (!text)
        why = "out of memory";
    else if (hls_replace_text(path, text) != 0)
        why = strerror(errno);
    if (why)
        fprintf(stderr, "clhls: %s: cannot write '%s': %s\n", what, path, why);
    cJSON_free(text);
}

void rt_trace_flush(void)
{
    rt_trace_start();
    pthread_mutex_lock(&trace_lock);
    if (written || getpid() != owner) {
        pthread_mutex_unlock(&trace_lock);
        return;
    }
    written = 1;
    if (trace_path) {
        cJSON *root = cJSON_CreateObject();
        cJSON *events = trace_events ? trace_events : cJSON_CreateArray();
        if (root && events) {
            cJSON_AddItemReferenceToObject(root, "traceEvents", events);
            cJSON_AddStringToObject(root, "displayTimeUnit", "ns");
            cJSON *other = cJSON_AddObjectToObject(root, "otherData");
            cJSON_AddStringToObject(other, "generator", "clhls");
            cJSON_AddStringToObject(other, "version", hls_version());
            cJSON_AddStringToObject(other, "clock",
                                    "the device timeline of the profiling events (ns)");
        }
        write_file("CLHLS_TRACE", trace_path, root);
        cJSON_Delete(root);
        if (events != trace_events)
            cJSON_Delete(events);
    }
    if (counters_path) {
        cJSON *root = cJSON_CreateObject();
        cJSON *runs = kernel_runs ? kernel_runs : cJSON_CreateArray();
        if (root && runs) {
            cJSON_AddNumberToObject(root, "format", 1);
            cJSON_AddItemReferenceToObject(root, "kernels", runs);
        }
        write_file("CLHLS_COUNTERS", counters_path, root);
        cJSON_Delete(root);
        if (runs != kernel_runs)
            cJSON_Delete(runs);
    }
    pthread_mutex_unlock(&trace_lock);
}
