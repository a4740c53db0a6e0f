/* The last run of each kernel, recorded in the program's cache entry as
 * last_run.json so that `clhls report` can show the hardware counters next to the
 * hardware that produced them:
 *   {"format": 1, "kernels": {"NAME": {"board": B, "time": UNIX_SECONDS, "ok": true,
 *     "cycles": N, "work_dim": D, "global": [..], "local": [..],
 *     "counters": {"busy_cycles": N, ...}}}}
 * The file is read, the kernel's entry replaced and the whole written to a temporary
 * file renamed over the old one, so a reader never sees half a file. Threads of this
 * process take turns; two processes running kernels of one program at once may lose
 * one another's entry, never corrupt the file. Nothing here can fail a kernel. */
#define _GNU_SOURCE
#include "last_run.h"

#include <cjson/cJSON.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define LAST_RUN_FILE "last_run.json"
/* Larger files are not ours to parse: start afresh. */
#define LAST_RUN_MAX_BYTES (1 << 20)

static pthread_mutex_t last_run_lock = PTHREAD_MUTEX_INITIALIZER;

/* The recorded runs, or a new empty record when there is none (or it is unreadable). */
static cJSON *read_record(const char *path)
{
    cJSON *root = NULL;
    FILE *f = fopen(path, "rb");
    if (f) {
        long size = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
        char *text = size >= 0 && size <= LAST_RUN_MAX_BYTES && fseek(f, 0, SEEK_SET) == 0
                         ? malloc((size_t)size + 1) : NULL;
        if (text && fread(text, 1, (size_t)size, f) == (size_t)size) {
            text[size] = '\0';
            root = cJSON_Parse(text);
        }
        free(text);
        fclose(f);
    }
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

/* Writes text to path through a temporary file in the same directory; 0 on success. */
static int replace_file(const char *dir, const char *path, const char *text)
{
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s/.%s.XXXXXX", dir, LAST_RUN_FILE);
    int fd = mkstemp(tmp);
    if (fd < 0)
        return -1;
    FILE *f = fdopen(fd, "wb");
    if (!f) {
        close(fd);
        unlink(tmp);
        return -1;
    }
    int bad = fputs(text, f) < 0 || fputc('\n', f) < 0;
    bad |= fclose(f) != 0;
    if (bad || rename(tmp, path) != 0) {
        unlink(tmp);
        return -1;
    }
    return 0;
}

void rt_last_run_record(const char *entry_dir, const char *board, const rt_kernel_launch *launch,
                        const uint64_t *counter_values, uint64_t cycles, int ok)
{
    if (!entry_dir || !launch || !launch->name || access(entry_dir, W_OK) != 0)
        return;
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", entry_dir, LAST_RUN_FILE);
    pthread_mutex_lock(&last_run_lock);
    cJSON *root = read_record(path);
    cJSON *kernels = cJSON_GetObjectItem(root, "kernels");
    cJSON *run = run_json(board, launch, counter_values, cycles, ok);
    if (cJSON_GetObjectItem(kernels, launch->name))
        cJSON_ReplaceItemInObject(kernels, launch->name, run);
    else
        cJSON_AddItemToObject(kernels, launch->name, run);
    char *text = cJSON_Print(root);
    if (text)
        replace_file(entry_dir, path, text);
    cJSON_free(text);
    cJSON_Delete(root);
    pthread_mutex_unlock(&last_run_lock);
}
