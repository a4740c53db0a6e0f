/* Waveforms for the user (docs/user-guide.md, "Waveforms"): with CLHLS_WAVES=FILE.fst
 * a program's model is loaded in its traced variant, which records the accelerator's
 * signals in FILE.fst. This file reads the variables (CLHLS_WAVES, CLHLS_WAVES_KERNEL,
 * CLHLS_WAVES_CYCLES) once, finds the traced model of a build's cache entry
 * (ENTRY/waves/model.so) or has the `clhls` tool build it in a child process (`clhls
 * waves-model ENTRY`, compiler.c: a failed build never takes the host program with
 * it), and names each traced program's file: the first FILE.fst, the next FILE-2.fst,
 * and so on. When the traced model cannot be had, a message says why on stderr and
 * the program runs on the normal model, without waveforms. rt_model_variant_build runs
 * the tool for this variant and for the multi-threaded one (sim_threads.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "manifest.h"
#include "rt.h"

static rt_waves config;
static pthread_once_t config_once = PTHREAD_ONCE_INIT;
static atomic_uint files_named; /* files handed out so far */

/* FIRST:LAST, FIRST: or :LAST, decimal cycle counts; 0 on success. */
static int parse_window(const char *s, uint64_t *first, uint64_t *last)
{
    const char *colon = strchr(s, ':');
    if (!colon)
        return -1;
    char *end;
    *first = 0;
    *last = UINT64_MAX;
    if (colon > s) {
        errno = 0;
        *first = strtoull(s, &end, 10);
        if (errno || end != colon || *s == '-')
            return -1;
    }
    if (colon[1]) {
        errno = 0;
        *last = strtoull(colon + 1, &end, 10);
        if (errno || *end || colon[1] == '-')
            return -1;
    }
    return *first <= *last ? 0 : -1;
}

static void read_config(void)
{
    const char *path = getenv("CLHLS_WAVES");
    if (!path || !*path)
        return;
    snprintf(config.path, sizeof config.path, "%s", path);
    const char *kernel = getenv("CLHLS_WAVES_KERNEL");
    if (kernel && *kernel)
        snprintf(config.kernel, sizeof config.kernel, "%s", kernel);
    const char *window = getenv("CLHLS_WAVES_CYCLES");
    if (window && *window) {
        if (parse_window(window, &config.first, &config.last) == 0)
            config.window = 1;
        else
            fprintf(stderr,
                    "clhls: CLHLS_WAVES_CYCLES=%s: expected FIRST:LAST, cycles counted from "
                    "each kernel's start (e.g. 0:5000, 1000: or :200); recording whole "
                    "kernels\n", window);
    }
    config.on = 1;
}

const rt_waves *rt_waves_config(void)
{
    pthread_once(&config_once, read_config);
    return &config;
}

int rt_waves_wanted(const rt_kernel_meta *kernels, cl_uint nkernels)
{
    const rt_waves *w = rt_waves_config();
    if (!w->on)
        return 0;
    if (!w->kernel[0])
        return 1;
    for (cl_uint i = 0; i < nkernels; i++)
        if (!strcmp(kernels[i].name, w->kernel))
            return 1;
    return 0;
}

int rt_model_variant_build(const char *const args[], const char *name, char *so,
                           size_t so_len, char *err, size_t errlen)
{
    /* Built by the clhls tool, as a program is: a crash or a missing tool is a message */
    rt_job job;
    if (rt_job_begin(&job, err, errlen) != 0)
        return -1;
    rt_job_result r;
    int rc = -1;
    if (rt_job_run(&job, args, &r) != CL_SUCCESS) {
        snprintf(err, errlen, "out of host memory");
    } else if (r.status == 0 && r.entry) {
        snprintf(so, so_len, "%s/model.so", r.entry);
        rc = 0;
    } else {
        /* the log's last 1500 bytes: the end says why */
        const char *log = r.log ? r.log : "";
        size_t len = strlen(log);
        snprintf(err, errlen, "the %s model could not be built:\n%s", name,
                 len > 1500 ? log + len - 1500 : log);
        size_t n = strlen(err);
        while (n && err[n - 1] == '\n')
            err[--n] = '\0';
    }
    rt_job_result_free(&r);
    rt_job_end(&job);
    return rc;
}

int rt_waves_model(const char *entry, char *so, size_t so_len, char *err, size_t errlen)
{
    char dir[4200], why[512];
    snprintf(dir, sizeof dir, "%s/waves", entry);
    if (hls_entry_usable(dir, "model.so", why, sizeof why) == 1) {
        snprintf(so, so_len, "%s/model.so", dir);
        return 0;
    }
    fprintf(stderr, "clhls: CLHLS_WAVES: building the traced model of the program (once "
                    "per build; clhls build --waves makes it beforehand) ...\n");
    const char *args[] = {"waves-model", entry, NULL};
    return rt_model_variant_build(args, "traced", so, so_len, err, errlen);
}

void rt_waves_next_file(char *path, size_t len)
{
    unsigned n = atomic_fetch_add(&files_named, 1) + 1;
    const char *file = rt_waves_config()->path;
    if (n == 1) {
        snprintf(path, len, "%s", file);
        return;
    }
    /* FILE-N.fst: the number before the extension of the file's name */
    const char *slash = strrchr(file, '/');
    const char *dot = strrchr(slash ? slash + 1 : file, '.');
    if (!dot || dot == (slash ? slash + 1 : file))
        snprintf(path, len, "%s-%u", file, n);
    else
        snprintf(path, len, "%.*s-%u%s", (int)(dot - file), file, n, dot);
}
