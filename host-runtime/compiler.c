/* The compiler out of process: clBuildProgram (and clCompileProgram, clLinkProgram)
 * run the `clhls` tool in a child process, so a compiler crash, hang or out-of-memory
 * is a build failure with a message and never the host program's death, and the
 * application never loads libLLVM. A job has a scratch directory in the build cache
 * (inputs for the child, its result file), the child runs in its own process group
 * with stdin from /dev/null, stdout and stderr into one pipe and no other inherited
 * file descriptor, under a time limit (CLHLS_COMPILE_TIMEOUT, default 1800 s), and is
 * killed when the host program dies (PR_SET_PDEATHSIG), its tools with it
 * (hls/toolgroup.h). Its result is a JSON file (docs/architecture.md, "Compiling out
 * of process"). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "fsutil.h"
#include "rt.h"

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

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Keeps the last OUTPUT_KEEP bytes the child printed. */
static void keep_output(char *keep, size_t *kept, const char *buf, size_t n)
{
    _Static_assert(OUTPUT_KEEP >= 4096, "a read (4096 bytes) fits in what is kept");
    if (*kept + n > OUTPUT_KEEP) {
        size_t drop = *kept + n - OUTPUT_KEEP;
        memmove(keep, keep + drop, *kept - drop);
        *kept -= drop;
    }
    memcpy(keep + *kept, buf, n);
    *kept += n;
}

/* In the child between fork and exec: only async-signal-safe calls. */
static _Noreturn void child_exec(const char *tool, char *const argv[], int devnull, int out,
                                 pid_t host)
{
    setpgid(0, 0); /* its own group: a time-out ends clang and Verilator too */
    /* The host program gone (killed, crashed), the build has no one to report to; the
     * compiler's tools end with it (hls/toolgroup.h). Gone already before the signal
     * was asked for: nothing would send it. */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != host)
        _exit(127);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigaction(SIGPIPE, &dfl, NULL);
    sigaction(SIGCHLD, &dfl, NULL);
    if (dup2(devnull, 0) < 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0)
        _exit(127);
    /* Nothing else of the host program (its files, sockets, other builds' pipes). */
    if (close_range(3, ~0u, 0) != 0)
        for (int fd = 3; fd < 65536; fd++)
            close(fd);
    execv(tool, argv);
    static const char msg[] = "exec failed\n";
    ssize_t w = write(2, msg, sizeof msg - 1);
    (void)w;
    _exit(127);
}

static void result_log(rt_job_result *r, const char *text)
{
    size_t a = r->log ? strlen(r->log) : 0, b = strlen(text);
    char *n = rt_realloc(r->log, a + b + 1);
    if (!n)
        return;
    memcpy(n + a, text, b + 1);
    r->log = n;
}

/* Reads the child's result file into r; 0 on success. */
static int read_result(const char *path, rt_job_result *r)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    char *text = NULL;
    long n = -1;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0)
        text = rt_alloc((size_t)n + 1);
    int bad = !text || fread(text, 1, (size_t)n, f) != (size_t)n;
    fclose(f);
    cJSON *root = bad ? NULL : cJSON_ParseWithLength(text, (size_t)n);
    rt_free(text);
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

    int fds[2] = {-1, -1};
    int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (devnull < 0 || pipe2(fds, O_CLOEXEC) != 0) {
        snprintf(msg, sizeof msg, "clhls: cannot start the compiler: %s\n", strerror(errno));
        if (devnull >= 0)
            close(devnull);
        rt_free(argv);
        result_log(r, msg);
        return r->log ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    }
    double limit = rt_compiler_timeout(), t0 = now_s();
    pid_t host = getpid(), pid = fork();
    if (pid == 0)
        child_exec(tool, argv, devnull, fds[1], host);
    int fork_errno = errno;
    close(devnull);
    close(fds[1]);
    rt_free(argv);
    if (pid < 0) {
        close(fds[0]);
        snprintf(msg, sizeof msg, "clhls: cannot start the compiler: %s\n",
                 strerror(fork_errno));
        result_log(r, msg);
        return r->log ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    }
    fcntl(fds[0], F_SETFL, O_NONBLOCK);

    /* Collect its output until it exits or the time limit passes. The pipe closes when
     * the child and everything it started have exited; without that (a crash that left
     * a grandchild running) the exit is noticed within 50 ms. */
    char keep[OUTPUT_KEEP + 1], buf[4096];
    size_t kept = 0;
    int open_pipe = 1, timed_out = 0, lost = 0;
    siginfo_t si;
    for (;;) {
        memset(&si, 0, sizeof si);
        int w = waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT);
        if (w == 0 && si.si_pid == pid)
            break;
        if (w < 0 && errno == ECHILD) {
            lost = 1; /* reaped behind our back (SIGCHLD ignored): the result says */
            break;
        }
        if (limit > 0 && now_s() - t0 > limit) {
            timed_out = 1;
            kill(-pid, SIGKILL);
            kill(pid, SIGKILL);
            break;
        }
        if (open_pipe) {
            struct pollfd pfd = {.fd = fds[0], .events = POLLIN};
            poll(&pfd, 1, 50);
            ssize_t n;
            while ((n = read(fds[0], buf, sizeof buf)) > 0)
                keep_output(keep, &kept, buf, (size_t)n);
            if (n == 0)
                open_pipe = 0;
        } else {
            struct timespec ts = {0, 2000000};
            nanosleep(&ts, NULL);
        }
    }
    /* Whatever it started and left behind goes with it (still unreaped, its process
     * group cannot be another's). */
    int normal = lost || (!timed_out && si.si_code == CLD_EXITED &&
                          (si.si_status == 0 || si.si_status == 1));
    if (!normal)
        kill(-pid, SIGKILL);
    int status = 0;
    while (!lost && waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    /* The rest of its output (the pipe's writers are gone or killed). */
    for (double t1 = now_s(); open_pipe && now_s() - t1 < 1.0;) {
        struct pollfd pfd = {.fd = fds[0], .events = POLLIN};
        poll(&pfd, 1, 50);
        ssize_t n;
        while ((n = read(fds[0], buf, sizeof buf)) > 0)
            keep_output(keep, &kept, buf, (size_t)n);
        if (n == 0)
            open_pipe = 0;
    }
    close(fds[0]);
    keep[kept] = '\0';

    if (normal) {
        int rc = read_result(result, r);
        if (rc == -2)
            return CL_OUT_OF_HOST_MEMORY;
        if (rc == 0)
            return CL_SUCCESS;
        rt_job_result_free(r);
        r->status = RT_JOB_DIED;
    }
    if (timed_out)
        snprintf(msg, sizeof msg,
                 "clhls: the compiler ran longer than the time limit of %g s "
                 "(CLHLS_COMPILE_TIMEOUT) and was stopped\n", limit);
    else if (si.si_code == CLD_KILLED || si.si_code == CLD_DUMPED)
        snprintf(msg, sizeof msg, "clhls: the compiler was killed by signal %d (%s)%s\n",
                 si.si_status, strsignal(si.si_status),
                 si.si_status == SIGKILL ? ": the system may have run out of memory" : "");
    else if (si.si_code == CLD_EXITED && si.si_status == 127)
        snprintf(msg, sizeof msg, "clhls: cannot run the compiler %s\n", tool);
    else
        snprintf(msg, sizeof msg,
                 "clhls: the compiler (%s) exited with status %d and no result\n", tool,
                 si.si_code == CLD_EXITED ? si.si_status : -1);
    result_log(r, msg);
    if (kept && !timed_out) {
        result_log(r, "clhls: the compiler's last output:\n");
        result_log(r, keep);
        if (keep[kept - 1] != '\n')
            result_log(r, "\n");
    }
    return r->log ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
}
