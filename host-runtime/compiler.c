/* The compiler out of process: clBuildProgram (and clCompileProgram, clLinkProgram)
 * run the `clhls` tool in a child process, so a compiler crash, hang or out-of-memory
 * is a build failure with a message and never the host program's death, and the
 * application never loads libLLVM. A job has a scratch directory in the build cache
 * (inputs for the child, its result file); the child (common/proc.h) runs in its own
 * process group with stdin from /dev/null, stdout and stderr into one pipe and no
 * other inherited file descriptor, under a time limit (CLHLS_COMPILE_TIMEOUT, default
 * 1800 s), and is killed when the host program dies (PR_SET_PDEATHSIG), its tools with
 * it (common/toolgroup.h). Its result is a JSON file (docs/architecture.md, "Compiling out
 * of process"). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "fsutil.h"
#include "proc.h"
#include "rt.h"
#include "strbuf.h"

#ifndef CLHLS_TOOL_BUILD
#define CLHLS_TOOL_BUILD "clhls" /* the build tree's tools/clhls */
#endif
#ifndef CLHLS_ICD_BUILD_DIR
#define CLHLS_ICD_BUILD_DIR "" /* the build tree's directory of libclhls.so */
#endif
#ifndef CLHLS_TOOL_FROM_LIBDIR
#define CLHLS_TOOL_FROM_LIBDIR "../bin/clhls" /* installed: from lib/ to bin/clhls */
#endif
#ifndef CLHLS_TOOL_INSTALLED
#define CLHLS_TOOL_INSTALLED "/usr/local/bin/clhls"
#endif

#define DEFAULT_TIMEOUT_S 1800.0 /* big kernels take minutes; a hang ends after 30 */
#define OUTPUT_KEEP 8192         /* bytes of the child's own output kept for messages */

static int executable(const char *path)
{
    struct stat st;
    return path && *path && stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
           access(path, X_OK) == 0;
}

/* 1 when directories a and b are the same directory. */
static int same_dir(const char *a, const char *b)
{
    struct stat sa, sb;
    return *a && *b && stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

int rt_compiler_path(char *buf, size_t len, char *err, size_t errlen)
{
    const char *env = getenv("CLHLS_COMPILER");
    if (env && *env) {
        snprintf(buf, len, "%s", env);
        if (executable(buf))
            return 0;
        snprintf(err, errlen, "CLHLS_COMPILER=%s is not an executable file", env);
        return -1;
    }
    /* The directory this library was loaded from: the build tree's host-runtime/ or
     * an installed tree's lib directory. */
    Dl_info info;
    char dir[PATH_MAX] = "";
    if (dladdr((void *)rt_compiler_path, &info) && info.dli_fname &&
        strchr(info.dli_fname, '/')) {
        snprintf(dir, sizeof dir, "%s", info.dli_fname);
        *strrchr(dir, '/') = '\0';
    }
    if (*dir && same_dir(dir, CLHLS_ICD_BUILD_DIR) && executable(CLHLS_TOOL_BUILD)) {
        snprintf(buf, len, "%s", CLHLS_TOOL_BUILD);
        return 0;
    }
    if (*dir) {
        snprintf(buf, len, "%s/%s", dir, CLHLS_TOOL_FROM_LIBDIR);
        if (executable(buf))
            return 0;
    }
    const char *fallback[] = {CLHLS_TOOL_INSTALLED, CLHLS_TOOL_BUILD};
    for (size_t i = 0; i < 2; i++)
        if (executable(fallback[i])) {
            snprintf(buf, len, "%s", fallback[i]);
            return 0;
        }
    snprintf(err, errlen,
             "cannot find the clhls compiler (looked next to %s and at %s); set "
             "CLHLS_COMPILER to its path",
             *dir ? dir : "the runtime library", CLHLS_TOOL_INSTALLED);
    return -1;
}

double rt_compiler_timeout(void)
{
    const char *s = getenv("CLHLS_COMPILE_TIMEOUT");
    if (!s || !*s)
        return DEFAULT_TIMEOUT_S;
    char *end;
    double v = strtod(s, &end);
    if (*end || v != v || v < 0)
        return DEFAULT_TIMEOUT_S;
    return v; /* 0: no limit */
}

/* ---- jobs ---- */

int rt_job_begin(rt_job *j, char *err, size_t errlen)
{
    memset(j, 0, sizeof *j);
    char root[3800];
    hls_cache_root(NULL, root, sizeof root);
    snprintf(j->dir, sizeof j->dir, "%s/tmp-job-XXXXXX", root);
    if (hls_mkdir_p(root) != 0 || !mkdtemp(j->dir)) {
        snprintf(err, errlen, "cannot create a directory in the build cache %s: %s", root,
                 strerror(errno));
        j->dir[0] = '\0';
        return -1;
    }
    return 0;
}

void rt_job_end(rt_job *j)
{
    if (j->dir[0])
        hls_remove_tree(j->dir);
    j->dir[0] = '\0';
}

char *rt_job_path(rt_job *j, const char *name, char *buf, size_t len)
{
    snprintf(buf, len, "%s/%s", j->dir, name);
    return buf;
}

int rt_job_write(rt_job *j, const char *name, const void *data, size_t len)
{
    char path[8192];
    rt_job_path(j, name, path, sizeof path);
    char *slash = strrchr(path, '/');
    *slash = '\0';
    int bad = hls_mkdir_p(path) != 0;
    *slash = '/';
    FILE *f = bad ? NULL : fopen(path, "wb");
    if (!f)
        return -1;
    bad = len && fwrite(data, 1, len, f) != len;
    return fclose(f) != 0 || bad ? -1 : 0;
}

/* ---- the child ---- */

/* Appends text to the result's log (left as it was when memory runs out). */
static void result_log(rt_job_result *r, const char *text)
{
    strbuf log = {.data = r->log, .len = r->log ? strlen(r->log) : 0, .lossy = 1};
    log.cap = r->log ? log.len + 1 : 0;
    sb_append(&log, text);
    r->log = log.data;
}

/* Reads the child's result file into r; 0 on success. */
static int read_result(const char *path, rt_job_result *r)
{
    cJSON *root = hls_read_json(path);
    const cJSON *st = cJSON_GetObjectItemCaseSensitive(root, "status");
    const cJSON *log = cJSON_GetObjectItemCaseSensitive(root, "log");
    const cJSON *entry = cJSON_GetObjectItemCaseSensitive(root, "entry");
    const cJSON *output = cJSON_GetObjectItemCaseSensitive(root, "output");
    if (!cJSON_IsNumber(st) || !cJSON_IsString(log)) {
        cJSON_Delete(root);
        return -1;
    }
    r->status = st->valueint;
    result_log(r, log->valuestring);
    if (cJSON_IsString(entry))
        r->entry = rt_strdup(entry->valuestring);
    if (cJSON_IsString(output))
        r->output = rt_strdup(output->valuestring);
    int nomem = !r->log || (cJSON_IsString(entry) && !r->entry) ||
                (cJSON_IsString(output) && !r->output);
    cJSON_Delete(root);
    return nomem ? -2 : 0;
}

void rt_job_result_free(rt_job_result *r)
{
    rt_free(r->log);
    rt_free(r->entry);
    rt_free(r->output);
    memset(r, 0, sizeof *r);
}

cl_int rt_job_run(rt_job *j, const char *const args[], rt_job_result *r)
{
    memset(r, 0, sizeof *r);
    r->status = RT_JOB_DIED;
    char tool[PATH_MAX], err[PATH_MAX + 256], msg[PATH_MAX + 512];
    if (rt_compiler_path(tool, sizeof tool, err, sizeof err) != 0) {
        snprintf(msg, sizeof msg, "clhls: %s\n", err);
        result_log(r, msg);
        return r->log ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    }
    char result[8192];
    rt_job_path(j, "result.json", result, sizeof result);
    size_t nargs = 0;
    while (args[nargs])
        nargs++;
    char **argv = rt_alloc((nargs + 6) * sizeof *argv);
    if (!argv)
        return CL_OUT_OF_HOST_MEMORY;
    argv[0] = tool;
    for (size_t i = 0; i < nargs; i++)
        argv[i + 1] = (char *)args[i];
    argv[nargs + 1] = "--result";
    argv[nargs + 2] = result;
    argv[nargs + 3] = "--scratch"; /* its temporary build directory goes with the job's */
    argv[nargs + 4] = j->dir;
    argv[nargs + 5] = NULL;

    /* Its own process group, so that a time-out or a crash ends what it started too;
     * killed when the host program dies (its tools with it: common/toolgroup.h);
     * its output kept for the message when it gives no result. */
    strbuf out = {.lossy = 1};
    proc child;
    proc_opts o = {.capture = &out, .capture_max = OUTPUT_KEEP, .group = PROC_GROUP_OWN,
                   .die_with_caller = 1, .time_limit = rt_compiler_timeout()};
    int started = proc_start(&child, (const char *const *)argv, &o) == 0;
    rt_free(argv);
    if (!started) {
        snprintf(msg, sizeof msg, "clhls: cannot run the compiler %s: %s\n", tool,
                 strerror(errno));
        result_log(r, msg);
        return r->log ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    }
    proc_wait(&child);
    int normal = child.lost || (!child.timed_out && child.exited &&
                                (child.code == 0 || child.code == 1));
    int rc = normal ? read_result(result, r) : -1;
    if (rc == 0 || rc == -2) {
        sb_free(&out);
        return rc ? CL_OUT_OF_HOST_MEMORY : CL_SUCCESS;
    }
    if (normal) {
        rt_job_result_free(r);
        r->status = RT_JOB_DIED;
    }
    if (child.timed_out)
        snprintf(msg, sizeof msg,
                 "clhls: the compiler ran longer than the time limit of %g s "
                 "(CLHLS_COMPILE_TIMEOUT) and was stopped\n", o.time_limit);
    else if (!child.exited)
        snprintf(msg, sizeof msg, "clhls: the compiler was killed by signal %d (%s)%s\n",
                 child.code, strsignal(child.code),
                 child.code == SIGKILL ? ": the system may have run out of memory" : "");
    else if (child.code == 127)
        snprintf(msg, sizeof msg, "clhls: cannot run the compiler %s\n", tool);
    else
        snprintf(msg, sizeof msg,
                 "clhls: the compiler (%s) exited with status %d and no result\n", tool,
                 child.code);
    result_log(r, msg);
    if (out.len && !child.timed_out) {
        result_log(r, "clhls: the compiler's last output:\n");
        result_log(r, out.data);
        if (out.data[out.len - 1] != '\n')
            result_log(r, "\n");
    }
    sb_free(&out);
    return r->log ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
}
