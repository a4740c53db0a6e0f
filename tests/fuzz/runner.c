/* The differential-testing runner: generates random kernels (gen.c) for a range of
 * seeds, puts several in one program, builds and runs the program on clhls and on PoCL
 * (each side in its own child process, clhls_fuzz_exec, see exec.c) and compares every
 * output byte of every kernel. It reports each kernel, tallies the outcomes (matched,
 * rejected at build time by either side with the first error line of the build log,
 * mismatched, crashed, failed at run time, timed out), reduces each failure to a smaller
 * kernel by removing statements while the failure persists (delta debugging), writes
 * the reproducers with their seeds to a directory, and ends with a table of the tally
 * and the kernels per minute.
 *
 * A build failure is pinned on the kernel its first error line points into; that
 * kernel is dropped and the rest built again. A failure no line explains (a crash or a
 * hang in the build) is isolated by building each kernel of the program alone. */
#define _XOPEN_SOURCE 700   /* nftw */
#include "gen.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef FUZZ_EXEC
#define FUZZ_EXEC "clhls_fuzz_exec"
#endif
#ifndef FUZZ_EXEC_PLAIN
#define FUZZ_EXEC_PLAIN FUZZ_EXEC
#endif
#ifndef FUZZ_CLHLS_ICD
#define FUZZ_CLHLS_ICD "clhls.icd"
#endif
#ifndef FUZZ_CACHE_DIR
#define FUZZ_CACHE_DIR "cache"
#endif
#ifndef FUZZ_BOARD_DIR
#define FUZZ_BOARD_DIR "boards"
#endif

enum { SIDE_POCL, SIDE_CLHLS, NSIDES };

static const char *const side_name[NSIDES] = { "pocl", "clhls" };

/* What happened to a kernel on one side. */
typedef enum outcome {
    OUT_NONE,       /* not run (yet) */
    OUT_OK,         /* ran; bytes hold out and res */
    OUT_REJECTED,   /* the build failed at this kernel */
    OUT_CRASHED,    /* the process died (signal, sanitizer, exit) */
    OUT_RUN_ERROR,  /* an OpenCL call failed while running it */
    OUT_TIMEOUT,    /* the process did not finish in time */
} outcome;

/* One side's result for one kernel. */
typedef struct side_result {
    outcome kind;           /* what happened */
    char reason[512];       /* build-log line, signal, error code */
    unsigned char *bytes;   /* out then res, for OUT_OK */
    size_t nbytes;          /* their size */
} side_result;

/* A kernel under test. */
typedef struct entry {
    fz_kernel *kernel;              /* the generated kernel */
    side_result side[NSIDES];       /* per side */
    int first_line, last_line;      /* its lines in the current program text */
} entry;

/* The verdicts of the tally. */
typedef enum verdict {
    V_MATCH, V_MISMATCH, V_REJECT_CLHLS, V_REJECT_CLHLS_DOC, V_REJECT_POCL, V_CRASH,
    V_RUN_ERROR, V_TIMEOUT, NVERDICTS
} verdict;

static const char *const verdict_name[NVERDICTS] = {
    "matched", "MISMATCH", "rejected by clhls", "rejected by clhls (documented)",
    "rejected by PoCL", "CRASHED", "run error", "TIMED OUT",
};

/* The run's settings and counters. */
typedef struct runner {
    unsigned long long seed_start;  /* first seed */
    int count;                      /* kernels */
    int per_program;                /* kernels per program */
    unsigned features;              /* FZ_* */
    const char *work_dir;           /* scratch files */
    const char *repro_dir;          /* where reduced reproducers go, or NULL */
    int reduce_tests;               /* test budget per reduction */
    int build_timeout;              /* seconds for a build */
    int kernel_timeout;             /* seconds for one kernel */
    int strict;                     /* exit status 1 on any failure */
    int quiet;                      /* report only what did not match */
    const char *exec_path[NSIDES];  /* executor per side */
    const char *icd[NSIDES];        /* .icd file per side */
    int tally[NVERDICTS];           /* kernels per verdict */
    int branch_barrier_mismatches;  /* mismatches of kernels with barriers in branches */
    int exit_failures;              /* children that failed after finishing every kernel */
    int programs;                   /* programs run */
    double side_seconds[NSIDES];    /* time in each side's children */
    int runs;                       /* child processes started */
} runner;

/* ---- small helpers ---- */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "clhls_fuzz: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    exit(2);
}

/* Copies src into dst of size bytes, cut short if need be. */
static void set_text(char *dst, size_t size, const char *src)
{
    size_t n = strlen(src);
    if (n >= size)
        n = size - 1;
    memcpy(dst, src, n);
    dst[n] = 0;
}

/* Appends src to the string in dst of size bytes, cut short if need be. */
static void append_text(char *dst, size_t size, const char *src)
{
    size_t used = strlen(dst);
    set_text(dst + used, size - used, src);
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f || fputs(text, f) == EOF || fclose(f) != 0)
        die("cannot write %s: %s", path, strerror(errno));
}

static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while ((got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (cap - n - 1 == 0)
            buf = realloc(buf, cap *= 2);
    }
    fclose(f);
    buf[n] = 0;
    if (len)
        *len = n;
    return buf;
}

static void make_dir(const char *path)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s", path);
    for (char *p = tmp + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            mkdir(tmp, 0755);
            *p = '/';
        }
    if (mkdir(tmp, 0755) != 0 && errno != EEXIST)
        die("cannot create %s: %s", path, strerror(errno));
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

static void remove_tree(const char *path)
{
    nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void shape_text(const fz_shape *s, char *buf, size_t len)
{
    if (s->dims == 1)
        snprintf(buf, len, "1D %zu/%zu", s->global[0], s->local[0]);
    else if (s->dims == 2)
        snprintf(buf, len, "2D %zux%zu/%zux%zu", s->global[0], s->global[1], s->local[0],
                 s->local[1]);
    else
        snprintf(buf, len, "3D %zux%zux%zu/%zux%zux%zu", s->global[0], s->global[1], s->global[2],
                 s->local[0], s->local[1], s->local[2]);
}

/* ---- programs ---- */

/* The program text of some kernels; records each kernel's line range. */
static char *program_text(entry **es, int n)
{
    size_t cap = 1 << 16, len = 0;
    char *text = malloc(cap);
    int line = 1;
    const char *prelude = fz_prelude();
    text[0] = 0;
    for (int pass = -1; pass < n; pass++) {
        char *part = pass < 0 ? (char *)prelude : fz_kernel_text(es[pass]->kernel);
        size_t plen = strlen(part);
        if (pass >= 0)
            es[pass]->first_line = line;
        for (const char *p = part; *p; p++)
            line += *p == '\n';
        if (pass >= 0)
            es[pass]->last_line = line - 1;
        while (len + plen + 1 > cap)
            text = realloc(text, cap *= 2);
        memcpy(text + len, part, plen + 1);
        len += plen;
        if (pass >= 0)
            free(part);
    }
    return text;
}

/* The build options of a program on a side: PoCL's programs use the prelude's reference
 * definitions (-DFZ_REFERENCE) of what PoCL 3.1 lacks (work-group functions) or gets
 * wrong (signed abs_diff). */
static const char *program_options(entry **es, int n, int side)
{
    int cl20 = 0;
    for (int i = 0; i < n; i++)
        cl20 |= fz_kernel_needs_cl20(es[i]->kernel);
    if (side == SIDE_POCL)
        return cl20 ? "-cl-std=CL2.0 -cl-fp32-correctly-rounded-divide-sqrt -DFZ_REFERENCE"
                    : "-cl-fp32-correctly-rounded-divide-sqrt -DFZ_REFERENCE";
    return cl20 ? "-cl-std=CL2.0 -cl-fp32-correctly-rounded-divide-sqrt"
                : "-cl-fp32-correctly-rounded-divide-sqrt";
}

/* The first error of a build log: its line number in the program (0 if none) and the
 * message (the log's first line with "error", else its first line). */
static int first_error(const char *log, char *msg, size_t msglen)
{
    const char *p = log;
    int line_no = 0;
    msg[0] = 0;
    while (*p) {
        const char *eol = strchr(p, '\n');
        size_t n = eol ? (size_t)(eol - p) : strlen(p);
        const char *err = NULL;
        for (const char *q = p; q < p + n; q++)
            if (!strncmp(q, "error", 5)) {
                err = q;
                break;
            }
        if (err) {
            /* ...:LINE:COL: error */
            for (const char *q = p; q < err; q++) {
                int l, c, used = 0;
                if (*q == ':' && sscanf(q, ":%d:%d%n", &l, &c, &used) == 2 &&
                    (q[used] == ':' || q[used] == ' ')) {
                    line_no = l;
                    break;
                }
            }
            snprintf(msg, msglen, "%.*s", (int)n, p);
            return line_no;
        }
        if (!msg[0] && n)
            snprintf(msg, msglen, "%.*s", (int)n, p);
        p += n + (eol ? 1 : 0);
    }
    return 0;
}

/* The last line of a file that says something about a crash (a sanitizer summary, a
 * clhls message), or "". */
static void crash_hint(const char *path, char *hint, size_t len)
{
    hint[0] = 0;
    char *text = read_all(path, NULL);
    if (!text)
        return;
    const char *p = text;
    while (*p) {
        const char *eol = strchr(p, '\n');
        size_t n = eol ? (size_t)(eol - p) : strlen(p);
        if ((n > 8 && !strncmp(p, "SUMMARY:", 8)) || strstr(p, "runtime error") == p ||
            (n > 6 && !strncmp(p, "clhls:", 6)) || (n > 3 && strstr(p, "ERROR:") && (size_t)(strstr(p, "ERROR:") - p) < n))
            snprintf(hint, len, "%.*s", (int)(n > 300 ? 300 : n), p);
        p += n + (eol ? 1 : 0);
    }
    free(text);
}

/* ---- one child process ---- */

/* Events of a child, as read from its stdout. */
typedef enum child_event { EV_LINE, EV_EOF, EV_TIMEOUT } child_event;

/* A running executor. */
typedef struct child {
    pid_t pid;          /* its process (and process group) */
    int fd;             /* read end of its stdout */
    char buf[4096];     /* unread output */
    size_t len;         /* bytes in buf */
} child;

/* The running executor's process group, ended with the runner on SIGTERM/SIGINT. */
static volatile sig_atomic_t current_child;

static void on_signal(int sig)
{
    if (current_child > 0)
        kill(-(pid_t)current_child, SIGKILL);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void spawn(runner *r, int side, const char *job, const char *dir, child *c)
{
    int fds[2];
    if (pipe(fds) != 0)
        die("pipe: %s", strerror(errno));
    char errpath[4200];
    snprintf(errpath, sizeof errpath, "%s/stderr.txt", dir);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        die("fork: %s", strerror(errno));
    if (pid == 0) {
        setpgid(0, 0);
        dup2(fds[1], 1);
        int errfd = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (errfd >= 0)
            dup2(errfd, 2);
        close(fds[0]);
        close(fds[1]);
        setenv("OCL_ICD_VENDORS", r->icd[side], 1);
        execl(r->exec_path[side], r->exec_path[side], side == SIDE_CLHLS ? "clhls" : "Portable",
              job, dir, (char *)NULL);
        fprintf(stderr, "cannot run %s: %s\n", r->exec_path[side], strerror(errno));
        _exit(127);
    }
    setpgid(pid, pid);
    current_child = pid;
    close(fds[1]);
    c->pid = pid;
    c->fd = fds[0];
    c->len = 0;
    r->runs++;
}

/* The next line of the child's output, waiting at most until deadline. */
static child_event next_line(child *c, double deadline, char *line, size_t linelen)
{
    for (;;) {
        char *nl = memchr(c->buf, '\n', c->len);
        if (nl) {
            size_t n = (size_t)(nl - c->buf);
            snprintf(line, linelen, "%.*s", (int)n, c->buf);
            memmove(c->buf, nl + 1, c->len - n - 1);
            c->len -= n + 1;
            return EV_LINE;
        }
        double left = deadline - now();
        if (left <= 0)
            return EV_TIMEOUT;
        struct pollfd pfd = { c->fd, POLLIN, 0 };
        int ready = poll(&pfd, 1, (int)(left * 1000) + 1);
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready == 0)
            continue;
        if (c->len == sizeof c->buf - 1)
            c->len = 0;   /* a line too long to be ours */
        ssize_t got = read(c->fd, c->buf + c->len, sizeof c->buf - 1 - c->len);
        if (got <= 0)
            return EV_EOF;
        c->len += (size_t)got;
    }
}

/* Ends the child (killing it when kill_it) and describes how it ended. Returns its
 * wait status. */
static int finish(child *c, int kill_it, char *how, size_t howlen)
{
    if (kill_it)
        kill(-c->pid, SIGKILL);
    close(c->fd);
    int status = 0;
    while (waitpid(c->pid, &status, 0) < 0 && errno == EINTR)
        ;
    current_child = 0;
    if (kill_it)
        snprintf(how, howlen, "killed after the time limit");
    else if (WIFSIGNALED(status))
        snprintf(how, howlen, "killed by signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
    else
        snprintf(how, howlen, "exit status %d", WEXITSTATUS(status));
    return status;
}

/* ---- one side ---- */

static void set_result(side_result *res, outcome kind, const char *reason)
{
    res->kind = kind;
    set_text(res->reason, sizeof res->reason, reason);
}

static void run_side(runner *r, int side, entry **es, int n);

static void isolate(runner *r, int side, entry **es, int n)
{
    for (int i = 0; i < n; i++)
        run_side(r, side, &es[i], 1);
}

/* Builds and runs kernels es[0..n) on one side, filling es[i]->side[side]. */
static void run_side(runner *r, int side, entry **es, int n)
{
    entry **pending = malloc(sizeof *pending * (size_t)n);
    memcpy(pending, es, sizeof *pending * (size_t)n);
    int npending = n;
    char dir[4096], src[4200], job[4200], line[1024], how[256], hint[512], reason[1024];
    snprintf(dir, sizeof dir, "%s/%s", r->work_dir, side_name[side]);
    make_dir(dir);
    snprintf(src, sizeof src, "%s/program.cl", dir);
    snprintf(job, sizeof job, "%s/job.txt", dir);
    double started = now();
    while (npending > 0) {
        char *text = program_text(pending, npending);
        write_text(src, text);
        free(text);
        FILE *jf = fopen(job, "w");
        if (!jf)
            die("cannot write %s: %s", job, strerror(errno));
        fprintf(jf, "source %s\noptions %s\n", src, program_options(pending, npending, side));
        for (int i = 0; i < npending; i++) {
            const fz_shape *s = fz_kernel_shape(pending[i]->kernel);
            fprintf(jf, "kernel %s %u %zu %zu %zu %zu %zu %zu\n", fz_kernel_name(pending[i]->kernel),
                    s->dims, s->global[0], s->global[1], s->global[2], s->local[0], s->local[1],
                    s->local[2]);
        }
        fclose(jf);
        char logpath[4200], errpath[4200];
        snprintf(logpath, sizeof logpath, "%s/build.log", dir);
        snprintf(errpath, sizeof errpath, "%s/stderr.txt", dir);
        remove(logpath);

        if (!r->quiet) {
            fprintf(stderr, "  [%s] building and running %d kernel(s)\n", side_name[side], npending);
            fflush(stderr);
        }
        child c;
        spawn(r, side, job, dir, &c);
        double deadline = now() + r->build_timeout;
        int built = 0, running = -1, done = 0, next_pending = npending;
        for (;;) {
            child_event ev = next_line(&c, deadline, line, sizeof line);
            if (ev == EV_LINE) {
                int i, code;
                char where[256];
                if (!strcmp(line, "BUILD_OK")) {
                    built = 1;
                } else if (!strncmp(line, "BUILD_FAIL", 10)) {
                    finish(&c, 0, how, sizeof how);
                    char *log = read_all(logpath, NULL);
                    int at = first_error(log ? log : "", reason, sizeof reason);
                    free(log);
                    int culprit = -1;
                    for (i = 0; i < npending && at; i++)
                        if (at >= pending[i]->first_line && at <= pending[i]->last_line)
                            culprit = i;
                    if (!r->quiet)
                        fprintf(stderr, "  [%s] build failed: %s\n", side_name[side], reason);
                    if (culprit < 0 && npending > 1) {
                        isolate(r, side, pending, npending);
                        npending = 0;
                    } else {
                        if (culprit < 0)
                            culprit = 0;
                        set_result(&pending[culprit]->side[side], OUT_REJECTED,
                                   reason[0] ? reason : "build failed with an empty log");
                        memmove(pending + culprit, pending + culprit + 1,
                                sizeof *pending * (size_t)(npending - culprit - 1));
                        npending--;
                    }
                    next_pending = -1;
                    break;
                } else if (!strncmp(line, "SETUP_FAIL", 10)) {
                    die("%s executor: %s (%s %s)", side_name[side], line, r->exec_path[side],
                        r->icd[side]);
                } else if (sscanf(line, "START %d", &i) == 1) {
                    running = i;
                    deadline = now() + r->kernel_timeout;
                } else if (sscanf(line, "DONE %d", &i) == 1 && i >= 0 && i < npending) {
                    char bin[4300];
                    snprintf(bin, sizeof bin, "%s/%d.bin", dir, i);
                    side_result *res = &pending[i]->side[side];
                    res->bytes = (unsigned char *)read_all(bin, &res->nbytes);
                    set_result(res, res->bytes ? OUT_OK : OUT_RUN_ERROR,
                               res->bytes ? "" : "the result file is missing");
                    remove(bin);
                    running = -1;
                    done = i + 1;
                } else if (sscanf(line, "ERROR %d %d %255s", &i, &code, where) == 3 && i >= 0 &&
                           i < npending) {
                    crash_hint(errpath, hint, sizeof hint);
                    snprintf(reason, sizeof reason, "%s -> %d%s%s", where, code,
                             hint[0] ? "; " : "", hint);
                    set_result(&pending[i]->side[side], OUT_RUN_ERROR, reason);
                    running = -1;
                    done = i + 1;
                }
                continue;
            }
            /* the child ended or ran out of time */
            int timed_out = ev == EV_TIMEOUT;
            int status = finish(&c, timed_out, how, sizeof how);
            crash_hint(errpath, hint, sizeof hint);
            snprintf(reason, sizeof reason, "%s%s%s%s", built ? "" : "during the build: ", how,
                     hint[0] ? "; " : "", hint);
            if (!r->quiet)
                fprintf(stderr, "  [%s] the executor ended: %s\n", side_name[side], reason);
            if (!built) {
                if (npending > 1) {
                    isolate(r, side, pending, npending);
                    npending = 0;
                    next_pending = -1;
                    break;
                }
                set_result(&pending[0]->side[side], timed_out ? OUT_TIMEOUT : OUT_CRASHED, reason);
                done = 1;
            } else if (running >= 0) {
                if (timed_out && npending > 1) {
                    /* once more alone, with the whole limit: a kernel that a loaded
                     * machine slowed among others is not a hang */
                    run_side(r, side, &pending[running], 1);
                } else {
                    set_result(&pending[running]->side[side],
                               timed_out ? OUT_TIMEOUT : OUT_CRASHED, reason);
                }
                done = running + 1;
            } else if (done < npending) {
                /* died between kernels: the next one is to blame */
                set_result(&pending[done]->side[side], timed_out ? OUT_TIMEOUT : OUT_CRASHED,
                           reason);
                done++;
            } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
                r->exit_failures++;
                fprintf(stderr, "clhls_fuzz: %s executor failed after running every kernel: %s\n",
                        side_name[side], reason);
            }
            break;
        }
        if (next_pending == -1)
            continue;   /* pending was updated in place */
        memmove(pending, pending + done, sizeof *pending * (size_t)(npending - done));
        npending -= done;
    }
    free(pending);
    r->side_seconds[side] += now() - started;
}

/* ---- verdicts ---- */

/* Whether a clhls build failure is a limitation the user guide documents ("What kernels
 * can do today": a private array indexed at run time must be read with one element
 * size). A struct with an array member indexed at run time is such an array read with
 * the sizes of all its members; the same message for any other kernel is a bug. */
static int documented(const entry *e, const char *reason)
{
    return strstr(reason, "a private array indexed at run time must be read and written with "
                          "one element size") && fz_kernel_has_struct_array(e->kernel);
}

static verdict judge(const entry *e)
{
    const side_result *p = &e->side[SIDE_POCL], *c = &e->side[SIDE_CLHLS];
    if (p->kind == OUT_REJECTED)
        return V_REJECT_POCL;
    if (c->kind == OUT_REJECTED)
        return documented(e, c->reason) ? V_REJECT_CLHLS_DOC : V_REJECT_CLHLS;
    if (p->kind == OUT_TIMEOUT || c->kind == OUT_TIMEOUT)
        return V_TIMEOUT;
    if (p->kind == OUT_CRASHED || c->kind == OUT_CRASHED)
        return V_CRASH;
    if (p->kind == OUT_RUN_ERROR || c->kind == OUT_RUN_ERROR)
        return V_RUN_ERROR;
    if (p->nbytes != c->nbytes || memcmp(p->bytes, c->bytes, p->nbytes))
        return V_MISMATCH;
    return V_MATCH;
}

/* A line describing the first differing word. */
static void describe_mismatch(const entry *e, char *buf, size_t len)
{
    const side_result *p = &e->side[SIDE_POCL], *c = &e->side[SIDE_CLHLS];
    const fz_shape *s = fz_kernel_shape(e->kernel);
    size_t items = s->global[0] * s->global[1] * s->global[2];
    size_t words = p->nbytes / 4, differ = 0, first = (size_t)-1;
    for (size_t i = 0; i < words && i < c->nbytes / 4; i++) {
        uint32_t a, b;
        memcpy(&a, p->bytes + 4 * i, 4);
        memcpy(&b, c->bytes + 4 * i, 4);
        if (a != b) {
            differ++;
            if (first == (size_t)-1)
                first = i;
        }
    }
    if (first == (size_t)-1) {
        snprintf(buf, len, "sizes differ: %zu against %zu bytes", p->nbytes, c->nbytes);
        return;
    }
    uint32_t a, b;
    memcpy(&a, p->bytes + 4 * first, 4);
    memcpy(&b, c->bytes + 4 * first, 4);
    if (first < items)
        snprintf(buf, len, "%zu of %zu words differ; first out[%zu]: PoCL 0x%08x, clhls 0x%08x",
                 differ, words, first, a, b);
    else
        snprintf(buf, len, "%zu of %zu words differ; first res[%zu]: PoCL 0x%08x, clhls 0x%08x",
                 differ, words, first - items, a, b);
    if (fz_kernel_has_branch_barrier(e->kernel))
        append_text(buf, len, " (barriers in a group-uniform branch or loop, where PoCL 3.1 "
                              "is known to be wrong: check by hand, tests/fuzz/repro/README.md)");
}

static void verdict_detail(const entry *e, verdict v, char *buf, size_t len)
{
    const side_result *p = &e->side[SIDE_POCL], *c = &e->side[SIDE_CLHLS];
    switch (v) {
    case V_MATCH: buf[0] = 0; break;
    case V_MISMATCH: describe_mismatch(e, buf, len); break;
    case V_REJECT_POCL: snprintf(buf, len, "%s", p->reason); break;
    case V_REJECT_CLHLS:
    case V_REJECT_CLHLS_DOC: snprintf(buf, len, "%s", c->reason); break;
    default:
        buf[0] = 0;
        if (p->kind != OUT_OK) {
            append_text(buf, len, "PoCL: ");
            append_text(buf, len, p->reason);
        }
        if (c->kind != OUT_OK) {
            append_text(buf, len, p->kind != OUT_OK ? "; clhls: " : "clhls: ");
            append_text(buf, len, c->reason);
        }
    }
}

static void clear_results(entry *e)
{
    for (int s = 0; s < NSIDES; s++) {
        free(e->side[s].bytes);
        memset(&e->side[s], 0, sizeof e->side[s]);
    }
}

/* ---- reduction ---- */

/* The message of a build-log line without its file:line:col prefix. */
static const char *message_part(const char *reason)
{
    const char *e = strstr(reason, "error");
    return e ? e : reason;
}

/* Runs the kernel alone on both sides; whether it still fails the way it did. */
static int still_fails(runner *r, entry *e, verdict want, const char *want_reason)
{
    clear_results(e);
    run_side(r, SIDE_POCL, &e, 1);
    if (e->side[SIDE_POCL].kind != OUT_OK)
        return 0;   /* a reduction must stay valid for the reference */
    run_side(r, SIDE_CLHLS, &e, 1);
    verdict v = judge(e);
    if (v != want)
        return 0;
    if (v == V_REJECT_CLHLS)
        return !strcmp(message_part(e->side[SIDE_CLHLS].reason), message_part(want_reason));
    return 1;
}

static int statements_left(const fz_kernel *k)
{
    int left = 0;
    for (int i = 0; i < fz_stmt_count(k); i++)
        left += fz_stmt_removable(k, i) && fz_stmt_present(k, i);
    return left;
}

/* Removes statements while the failure persists, coarse chunks first. Returns the
 * number of tests run. */
static int reduce(runner *r, entry *e, verdict want, const char *want_reason)
{
    fz_kernel *k = e->kernel;
    int tests = 0, n = fz_stmt_count(k);
    int *cand = malloc(sizeof *cand * (size_t)n);
    for (int chunk = n / 2 > 0 ? n / 2 : 1; chunk >= 1 && tests < r->reduce_tests; chunk /= 2) {
        int ncand = 0;
        for (int i = 0; i < n; i++)
            if (fz_stmt_removable(k, i) && fz_stmt_present(k, i))
                cand[ncand++] = i;
        for (int start = 0; start < ncand && tests < r->reduce_tests; start += chunk) {
            int changed = 0;
            for (int i = start; i < start + chunk && i < ncand; i++)
                if (fz_stmt_present(k, cand[i])) {
                    fz_stmt_set_removed(k, cand[i], 1);
                    changed = 1;
                }
            if (!changed)
                continue;
            tests++;
            if (still_fails(r, e, want, want_reason)) {
                if (!r->quiet)
                    printf("    reduced: %d statements left\n", statements_left(k));
            } else {
                for (int i = start; i < start + chunk && i < ncand; i++)
                    fz_stmt_set_removed(k, cand[i], 0);
            }
            fflush(stdout);
        }
        if (chunk == 1)
            break;
    }
    free(cand);
    /* leave the results of the final kernel behind for the report */
    still_fails(r, e, want, want_reason);
    return tests;
}

/* ---- reproducers ---- */

static void write_repro(runner *r, entry *e, verdict v, const char *original, int tests)
{
    char dir[4096], path[4200], detail[1024], shape[128];
    unsigned long long seed = (unsigned long long)fz_kernel_seed(e->kernel);
    snprintf(dir, sizeof dir, "%s/seed-%llu", r->repro_dir, seed);
    make_dir(dir);
    snprintf(path, sizeof path, "%s/original.cl", dir);
    write_text(path, original);
    char *text = program_text(&e, 1);
    snprintf(path, sizeof path, "%s/kernel.cl", dir);
    write_text(path, text);
    free(text);
    snprintf(path, sizeof path, "%s/in.txt", dir);
    FILE *f = fopen(path, "w");
    if (!f)
        die("cannot write %s: %s", path, strerror(errno));
    for (uint32_t i = 0; i < FZ_INPUT_WORDS; i++)
        fprintf(f, "0x%08x\n", fz_input_word(i));
    fclose(f);

    const fz_shape *s = fz_kernel_shape(e->kernel);
    shape_text(s, shape, sizeof shape);
    verdict_detail(e, judge(e), detail, sizeof detail);
    snprintf(path, sizeof path, "%s/host.txt", dir);
    f = fopen(path, "w");
    if (!f)
        die("cannot write %s: %s", path, strerror(errno));
    fprintf(f, "seed %llu, kernel %s: %s\n", seed, fz_kernel_name(e->kernel), verdict_name[v]);
    fprintf(f, "after reduction (%d tests, %d removable statements left): %s: %s\n", tests,
            statements_left(e->kernel), verdict_name[judge(e)], detail);
    fprintf(f, "build options: clhls: %s; PoCL: %s\n", program_options(&e, 1, SIDE_CLHLS),
            program_options(&e, 1, SIDE_POCL));
    fprintf(f, "NDRange: %u dimensions, global {%zu, %zu, %zu}, local {%zu, %zu, %zu}\n", s->dims,
            s->global[0], s->global[1], s->global[2], s->local[0], s->local[1], s->local[2]);
    fprintf(f, "arguments: 0 out: uint[%zu], one word per work-item, initialised to 0xdeadbeef;\n"
               "           1 in: uint[%d], the words of in.txt (fz_input_word(i) in tests/fuzz/gen.c);\n"
               "           2 res: uint[%d] = {", s->global[0] * s->global[1] * s->global[2],
            FZ_INPUT_WORDS, FZ_RES_WORDS);
    for (uint32_t i = 0; i < FZ_RES_WORDS; i++)
        fprintf(f, "%s0x%08x", i ? ", " : "", fz_result_init_word(i));
    fprintf(f, "}\ncompared: out then res, every byte, clhls against PoCL\n");
    fprintf(f, "files: kernel.cl (reduced), original.cl (as generated)\n");
    fprintf(f, "again: clhls_fuzz --seed %llu --count 1 --features 0x%x\n", seed, r->features);
    fclose(f);
    printf("    reproducer: %s (%s)\n", dir, detail);
}

/* ---- the run ---- */

static int is_failure(verdict v)
{
    return v != V_MATCH && v != V_REJECT_CLHLS_DOC;
}

static void process_program(runner *r, const unsigned long long *seeds, int n)
{
    entry *entries = calloc((size_t)n, sizeof *entries);
    entry **es = malloc(sizeof *es * (size_t)n);
    for (int i = 0; i < n; i++) {
        entries[i].kernel = fz_generate(seeds[i], r->features);
        es[i] = &entries[i];
    }
    r->programs++;
    for (int side = 0; side < NSIDES; side++)
        run_side(r, side, es, n);
    for (int i = 0; i < n; i++) {
        entry *e = &entries[i];
        verdict v = judge(e);
        char detail[1024], shape[128];
        r->tally[v]++;
        r->branch_barrier_mismatches += v == V_MISMATCH && fz_kernel_has_branch_barrier(e->kernel);
        verdict_detail(e, v, detail, sizeof detail);
        shape_text(fz_kernel_shape(e->kernel), shape, sizeof shape);
        if (!r->quiet || v != V_MATCH)
            printf("seed %llu %-22s %-20s %s%s%s\n", (unsigned long long)fz_kernel_seed(e->kernel),
                   shape, fz_kernel_name(e->kernel), verdict_name[v], detail[0] ? ": " : "", detail);
        fflush(stdout);
        if (r->repro_dir && is_failure(v) && v != V_REJECT_POCL) {
            char *original = program_text(&e, 1);
            char reason[512];
            snprintf(reason, sizeof reason, "%s", e->side[SIDE_CLHLS].reason);
            int tests = v == V_TIMEOUT ? 0 : reduce(r, e, v, reason);
            write_repro(r, e, v, original, tests);
            free(original);
        }
    }
    for (int i = 0; i < n; i++) {
        clear_results(&entries[i]);
        fz_kernel_free(entries[i].kernel);
    }
    free(es);
    free(entries);
}

static void print_table(runner *r, double seconds)
{
    int tried = 0;
    for (int v = 0; v < NVERDICTS; v++)
        tried += r->tally[v];
    printf("\n| kernels tried | matched | mismatched | of which with barriers in branches "
           "| rejected by clhls | of which documented | rejected by PoCL | crashed | run errors "
           "| timed out |\n|---|---|---|---|---|---|---|---|---|---|\n");
    printf("| %d | %d | %d | %d | %d | %d | %d | %d | %d | %d |\n", tried, r->tally[V_MATCH],
           r->tally[V_MISMATCH], r->branch_barrier_mismatches,
           r->tally[V_REJECT_CLHLS] + r->tally[V_REJECT_CLHLS_DOC],
           r->tally[V_REJECT_CLHLS_DOC], r->tally[V_REJECT_POCL], r->tally[V_CRASH],
           r->tally[V_RUN_ERROR], r->tally[V_TIMEOUT]);
    printf("\n| programs | child processes | PoCL time | clhls time | wall time | kernels per minute |\n"
           "|---|---|---|---|---|---|\n");
    printf("| %d | %d | %.0f s | %.0f s | %.0f s | %.1f |\n", r->programs, r->runs,
           r->side_seconds[SIDE_POCL], r->side_seconds[SIDE_CLHLS], seconds,
           seconds > 0 ? tried * 60.0 / seconds : 0.0);
    if (r->exit_failures)
        printf("\n%d executor(s) failed after running every kernel (see above)\n", r->exit_failures);
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: clhls_fuzz [options]\n"
            "  --seed N            first seed (default 1); kernel i has seed N+i\n"
            "  --count N           kernels to try (default 50)\n"
            "  --per-program N     kernels per program, one build each (default 10)\n"
            "  --features LIST     features to use (comma-separated, 'all'; default: all but\n"
            "                      those switched off for known clhls bugs)\n"
            "  --disable LIST      features to leave out of the default\n"
            "  --repro-dir DIR     reduce each failure and write its reproducer there\n"
            "  --reduce-tests N    builds per reduction at most (default 40)\n"
            "  --build-timeout S   seconds for a build (default 900)\n"
            "  --kernel-timeout S  seconds for one kernel's run (default 120)\n"
            "  --work-dir DIR      scratch directory (default: a new one in /tmp, removed)\n"
            "  --strict            exit status 1 on any mismatch, crash, run error, time-out,\n"
            "                      rejection by PoCL or undocumented rejection by clhls\n"
            "  --quiet             print only the kernels that did not match\n"
            "  --print SEED        print the program of one kernel and exit\n"
            "  --exec PATH, --exec-plain PATH, --clhls-icd PATH, --pocl-icd PATH\n"
            "                      the executors (sanitized for clhls, plain for PoCL) and\n"
            "                      the .icd files (defaults: this build tree, the system PoCL)\n");
}

/* Features on by default: everything but the documented clhls limitation. */
#define FUZZ_DEFAULT_FEATURES (FZ_ALL & ~FZ_STRUCT_ARRAY)

int main(int argc, char **argv)
{
    runner r;
    memset(&r, 0, sizeof r);
    r.seed_start = 1;
    r.count = 50;
    r.per_program = 10;
    r.features = FUZZ_DEFAULT_FEATURES;
    r.reduce_tests = 40;
    r.build_timeout = 900;
    r.kernel_timeout = 120;
    r.exec_path[SIDE_CLHLS] = FUZZ_EXEC;
    r.exec_path[SIDE_POCL] = FUZZ_EXEC_PLAIN;
    r.icd[SIDE_CLHLS] = FUZZ_CLHLS_ICD;
    r.icd[SIDE_POCL] = "/etc/OpenCL/vendors/pocl.icd";
    long long print_seed = -1;
    int keep_work = 0;
    char err[1024];
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define NEED_VALUE()                                                    \
    do {                                                                \
        if (!v)                                                         \
            die("%s needs a value (see --help)", a);                    \
        i++;                                                            \
    } while (0)
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--seed")) {
            NEED_VALUE();
            r.seed_start = strtoull(v, NULL, 0);
        } else if (!strcmp(a, "--count")) {
            NEED_VALUE();
            r.count = atoi(v);
        } else if (!strcmp(a, "--per-program")) {
            NEED_VALUE();
            r.per_program = atoi(v);
        } else if (!strcmp(a, "--features") || !strcmp(a, "--disable")) {
            NEED_VALUE();
            unsigned mask;
            if (!strncmp(v, "0x", 2))
                mask = (unsigned)strtoul(v, NULL, 16);
            else if (fz_parse_features(v, &mask, err, sizeof err) != 0)
                die("%s", err);
            r.features = !strcmp(a, "--features") ? mask : r.features & ~mask;
        } else if (!strcmp(a, "--repro-dir")) {
            NEED_VALUE();
            r.repro_dir = v;
        } else if (!strcmp(a, "--reduce-tests")) {
            NEED_VALUE();
            r.reduce_tests = atoi(v);
        } else if (!strcmp(a, "--build-timeout")) {
            NEED_VALUE();
            r.build_timeout = atoi(v);
        } else if (!strcmp(a, "--kernel-timeout")) {
            NEED_VALUE();
            r.kernel_timeout = atoi(v);
        } else if (!strcmp(a, "--work-dir")) {
            NEED_VALUE();
            r.work_dir = v;
            keep_work = 1;
        } else if (!strcmp(a, "--strict")) {
            r.strict = 1;
        } else if (!strcmp(a, "--quiet")) {
            r.quiet = 1;
        } else if (!strcmp(a, "--print")) {
            NEED_VALUE();
            print_seed = strtoll(v, NULL, 0);
        } else if (!strcmp(a, "--exec")) {
            NEED_VALUE();
            r.exec_path[SIDE_CLHLS] = v;
        } else if (!strcmp(a, "--exec-plain")) {
            NEED_VALUE();
            r.exec_path[SIDE_POCL] = v;
        } else if (!strcmp(a, "--clhls-icd")) {
            NEED_VALUE();
            r.icd[SIDE_CLHLS] = v;
        } else if (!strcmp(a, "--pocl-icd")) {
            NEED_VALUE();
            r.icd[SIDE_POCL] = v;
        } else {
            usage(stderr);
            die("unknown option %s", a);
        }
#undef NEED_VALUE
    }
    if (r.count < 1 || r.per_program < 1 || r.build_timeout < 1 || r.kernel_timeout < 1)
        die("--count, --per-program and the time limits must be positive");

    if (print_seed >= 0) {
        fz_kernel *k = fz_generate((uint64_t)print_seed, r.features);
        entry e = { .kernel = k };
        entry *pe = &e;
        char *text = program_text(&pe, 1);
        char shape[128];
        shape_text(fz_kernel_shape(k), shape, sizeof shape);
        printf("/* options: %s (PoCL: %s); NDRange %s */\n%s", program_options(&pe, 1, SIDE_CLHLS),
               program_options(&pe, 1, SIDE_POCL), shape, text);
        free(text);
        fz_kernel_free(k);
        return 0;
    }

    setenv("CLHLS_CACHE_DIR", getenv("CLHLS_CACHE_DIR") ? getenv("CLHLS_CACHE_DIR") : FUZZ_CACHE_DIR, 1);
    setenv("CLHLS_BOARD_DIR", getenv("CLHLS_BOARD_DIR") ? getenv("CLHLS_BOARD_DIR") : FUZZ_BOARD_DIR, 1);
    char work[4096];
    if (!r.work_dir) {
        snprintf(work, sizeof work, "/tmp/clhls-fuzz-%d", (int)getpid());
        r.work_dir = work;
    }
    make_dir(r.work_dir);
    if (r.repro_dir)
        make_dir(r.repro_dir);
    for (int side = 0; side < NSIDES; side++)
        if (access(r.exec_path[side], X_OK) != 0 || access(r.icd[side], R_OK) != 0)
            die("the %s side needs %s and %s", side_name[side], r.exec_path[side], r.icd[side]);

    signal(SIGTERM, on_signal);
    signal(SIGINT, on_signal);
    printf("clhls_fuzz: seeds %llu..%llu, %d kernels per program, features 0x%x\n", r.seed_start,
           r.seed_start + (unsigned long long)r.count - 1, r.per_program, r.features);
    fflush(stdout);
    double started = now();
    /* OpenCL C 1.2 and 2.0 kernels go to separate programs, each of per_program kernels */
    unsigned long long *batch[2];
    int nbatch[2] = { 0, 0 };
    for (int b = 0; b < 2; b++)
        batch[b] = malloc(sizeof *batch[b] * (size_t)r.per_program);
    for (int i = 0; i < r.count; i++) {
        unsigned long long seed = r.seed_start + (unsigned long long)i;
        fz_kernel *k = fz_generate(seed, r.features);
        int b = fz_kernel_needs_cl20(k);
        fz_kernel_free(k);
        batch[b][nbatch[b]++] = seed;
        if (nbatch[b] == r.per_program) {
            process_program(&r, batch[b], nbatch[b]);
            nbatch[b] = 0;
        }
    }
    for (int b = 0; b < 2; b++) {
        if (nbatch[b])
            process_program(&r, batch[b], nbatch[b]);
        free(batch[b]);
    }
    double seconds = now() - started;
    print_table(&r, seconds);
    if (!keep_work)
        remove_tree(r.work_dir);

    int failures = r.exit_failures;
    for (int v = 0; v < NVERDICTS; v++)
        if (is_failure((verdict)v))
            failures += r.tally[v];
    if (r.strict && failures) {
        printf("FAILED: %d kernel(s) did not match (see above)\n", failures);
        return 1;
    }
    if (failures)
        printf("done: %d kernel(s) did not match\n", failures);
    else
        printf("PASSED\n");
    return 0;
}
