/* The last run of each kernel, recorded in the program's cache entry as
 * last_run.json so that `clhls report` can show the hardware counters next to the
 * hardware that produced them:
 *   {"format": 1, "kernels": {"NAME": {"board": B, "time": UNIX_SECONDS, "ok": true,
 *     "cycles": N, "work_dim": D, "global": [..], "local": [..],
 *     "counters": {"busy_cycles": N, ...}}}}
 * Runs are kept in memory per cache entry; the file is written at an entry's first
 * run, then at most once a second while runs come (a program launching thousands of
 * small kernels must not pay a file write for each), and for whatever is left when
 * the process exits (rt_last_run_flush, registered with atexit). A write reads the
 * file, replaces the entries of the kernels that ran and writes the whole to a
 * temporary file renamed over the old one, so a reader never sees half a file.
 * Threads of this process take turns; two processes running kernels of one program
 * at once may lose one another's entry, never corrupt the file. Nothing here can fail
 * a kernel. */
#define _GNU_SOURCE
#include "fsutil.h"
#include "last_run.h"

#include <cjson/cJSON.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define LAST_RUN_FILE "last_run.json"
/* Seconds between two writes of one entry's file while kernels keep running. */
#define LAST_RUN_INTERVAL 1.0
/* Larger files are not ours to parse: start afresh. */
#define LAST_RUN_MAX_BYTES (1 << 20)

/* The runs of one cache entry not yet in its file. */
typedef struct pending_runs {
    struct pending_runs *next;
    char *entry_dir;            /* the cache entry */
    cJSON *kernels;             /* kernel name -> its last run, since the last write */
    double last_write;          /* monotonic seconds of the last write, 0 for none */
} pending_runs;

static pthread_mutex_t last_run_lock = PTHREAD_MUTEX_INITIALIZER;
static pending_runs *pending;   /* under last_run_lock */
static pthread_once_t at_exit_once = PTHREAD_ONCE_INIT;

/* The recorded runs, or a new empty record when there is none (or it is unreadable). */
static cJSON *read_record(const char *path)
{
    char *text = hls_read_file(path, LAST_RUN_MAX_BYTES, NULL);
    cJSON *root = text ? cJSON_Parse(text) : NULL;
    free(text);
    if (root && !cJSON_IsObject(cJSON_GetObjectItem(root, "kernels"))) {
        cJSON_Delete(root);
        root = NULL;
    }
    if (!root) {
        root = cJSON_CreateObject();
        cJSON_AddNumberToObject(root, "format", 1);
        cJSON_AddObjectToObject(root, "kernels");
    }
    return root;
}

static cJSON *sizes(const uint64_t v[3], unsigned dims)
{
    cJSON *a = cJSON_CreateArray();
    for (unsigned i = 0; i < dims && i < 3; i++)
        cJSON_AddItemToArray(a, cJSON_CreateNumber((double)v[i]));
    return a;
}

static cJSON *run_json(const char *board, const rt_kernel_launch *l, const uint64_t *values,
                       uint64_t cycles, int ok)
{
    cJSON *run = cJSON_CreateObject();
    cJSON_AddStringToObject(run, "board", board ? board : "");
    cJSON_AddNumberToObject(run, "time", (double)time(NULL));
    cJSON_AddBoolToObject(run, "ok", ok);
    cJSON_AddNumberToObject(run, "cycles", (double)cycles);
    cJSON_AddNumberToObject(run, "work_dim", l->work_dim);
    cJSON_AddItemToObject(run, "global", sizes(l->global, l->work_dim));
    cJSON_AddItemToObject(run, "local", sizes(l->local, l->work_dim));
    cJSON *cs = cJSON_AddObjectToObject(run, "counters");
    for (unsigned i = 0; i < l->ncounters && values; i++)
        cJSON_AddNumberToObject(cs, l->counters[i].name, (double)values[i]);
    return run;
}

/* Sets number item `name` of object o to v; 0 when o has no such number. */
static int set_number(cJSON *o, const char *name, double v)
{
    cJSON *item = cJSON_GetObjectItemCaseSensitive(o, name);
    if (!cJSON_IsNumber(item))
        return 0;
    cJSON_SetNumberValue(item, v);
    return 1;
}

/* Sets the numbers of array a to v[0..dims-1]; 0 when a holds another count. */
static int set_sizes(cJSON *a, const uint64_t v[3], unsigned dims)
{
    if (cJSON_GetArraySize(a) != (int)dims)
        return 0;
    unsigned i = 0;
    for (cJSON *item = a->child; item; item = item->next, i++)
        cJSON_SetNumberValue(item, (double)v[i]);
    return 1;
}

/* Writes a run into run, a record of the same kernel from this process, in place (a
 * program launching one kernel thousands of times builds no JSON for each); 0 when
 * its shape differs (then a new record replaces it). */
static int update_run_json(cJSON *run, const char *board, const rt_kernel_launch *l,
                           const uint64_t *values, uint64_t cycles, int ok)
{
    cJSON *b = cJSON_GetObjectItemCaseSensitive(run, "board");
    cJSON *good = cJSON_GetObjectItemCaseSensitive(run, "ok");
    cJSON *counters = cJSON_GetObjectItemCaseSensitive(run, "counters");
    if (!cJSON_IsString(b) || strcmp(b->valuestring, board ? board : "") || !cJSON_IsBool(good) ||
        !set_number(run, "time", (double)time(NULL)) ||
        !set_number(run, "cycles", (double)cycles) ||
        !set_number(run, "work_dim", l->work_dim) ||
        !set_sizes(cJSON_GetObjectItemCaseSensitive(run, "global"), l->global, l->work_dim) ||
        !set_sizes(cJSON_GetObjectItemCaseSensitive(run, "local"), l->local, l->work_dim) ||
        cJSON_GetArraySize(counters) != (int)(values ? l->ncounters : 0))
        return 0;
    good->type = ok ? cJSON_True : cJSON_False;
    unsigned i = 0;
    for (cJSON *c = counters->child; c; c = c->next, i++) {
        if (strcmp(c->string, l->counters[i].name))
            return 0;
        cJSON_SetNumberValue(c, (double)values[i]);
    }
    return 1;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Writes p's runs into its entry's file (when the entry can still be written) and
 * forgets them. Under last_run_lock. */
static void write_pending(pending_runs *p)
{
    char path[4200];
    if (!cJSON_GetArraySize(p->kernels) || access(p->entry_dir, W_OK) != 0 ||
        snprintf(path, sizeof path, "%s/%s", p->entry_dir, LAST_RUN_FILE) >= (int)sizeof path)
        return;
    cJSON *root = read_record(path);
    cJSON *kernels = cJSON_GetObjectItem(root, "kernels");
    while (p->kernels->child) {
        cJSON *run = cJSON_DetachItemViaPointer(p->kernels, p->kernels->child);
        cJSON *old = cJSON_GetObjectItem(kernels, run->string); /* run keeps its name */
        if (old)
            cJSON_ReplaceItemViaPointer(kernels, old, run);
        else
            cJSON_AddItemToObject(kernels, run->string, run);
    }
    char *text = cJSON_Print(root);
    if (text)
        hls_replace_text(path, text);
    cJSON_free(text);
    cJSON_Delete(root);
    p->last_write = now_seconds();
}

void rt_last_run_flush(void)
{
    pthread_mutex_lock(&last_run_lock);
    for (pending_runs *p = pending; p; p = p->next)
        write_pending(p);
    pthread_mutex_unlock(&last_run_lock);
}

static void flush_at_exit(void) { atexit(rt_last_run_flush); }

/* The pending runs of entry_dir, created when missing; NULL when out of memory. */
static pending_runs *pending_of(const char *entry_dir)
{
    for (pending_runs *p = pending; p; p = p->next)
        if (!strcmp(p->entry_dir, entry_dir))
            return p;
    pending_runs *p = calloc(1, sizeof *p);
    if (!p || !(p->entry_dir = strdup(entry_dir)) || !(p->kernels = cJSON_CreateObject())) {
        if (p)
            free(p->entry_dir);
        free(p);
        return NULL;
    }
    p->next = pending;
    pending = p;
    return p;
}

void rt_last_run_record(const char *entry_dir, const char *board, const rt_kernel_launch *launch,
                        const uint64_t *counter_values, uint64_t cycles, int ok)
{
    if (!entry_dir || !launch || !launch->name)
        return;
    pthread_once(&at_exit_once, flush_at_exit);
    pthread_mutex_lock(&last_run_lock);
    pending_runs *p = pending_of(entry_dir);
    cJSON *old = p ? cJSON_GetObjectItemCaseSensitive(p->kernels, launch->name) : NULL;
    cJSON *run = NULL;
    if (old && update_run_json(old, board, launch, counter_values, cycles, ok))
        run = old;
    else if (p && (run = run_json(board, launch, counter_values, cycles, ok))) {
        if (old) /* (by name: the new item takes the key) */
            cJSON_ReplaceItemInObjectCaseSensitive(p->kernels, launch->name, run);
        else
            cJSON_AddItemToObject(p->kernels, launch->name, run);
    }
    if (run && (!p->last_write || now_seconds() - p->last_write >= LAST_RUN_INTERVAL))
        write_pending(p);
    pthread_mutex_unlock(&last_run_lock);
}
