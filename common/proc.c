/* Child processes (proc.h). fork and exec rather than posix_spawn: the child may have to
 * ask for PR_SET_PDEATHSIG, and only a fork can. Between the two the child makes
 * async-signal-safe calls only, as the caller may have threads (a host program's).
 * Whether exec worked is known before proc_start returns: the child writes its errno
 * into a close-on-exec pipe, which an exec closes with nothing written. A child is
 * watched with waitid(WNOWAIT), so it stays a zombie, its process id and group not
 * reusable, until its group has been killed, and only this child is ever reaped (a
 * host program's other children are left alone). */
#define _GNU_SOURCE /* pipe2, execvpe, close_range */
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "toolgroup.h"

extern char **environ;

#define POLL_MS 50        /* a child's end is noticed this soon though its output is open */
#define DRAIN_SECONDS 1.0 /* output still read after the end, when something holds the pipe */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* In the child between fork and exec: async-signal-safe calls only. Writes errno to
 * status and exits when something fails. */
static _Noreturn void child(const char *const argv[], const proc_opts *o, pid_t group,
                            pid_t caller, int in, int out, int status)
{
    if (o->group == PROC_GROUP_OWN)
        setpgid(0, 0);
    else if (o->group == PROC_GROUP_TOOLS && group > 0)
        setpgid(0, group); /* when the group is gone, the child stays in the caller's */
    if (o->die_with_caller) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != caller) /* gone already: nothing would send the signal */
            _exit(127);
    }
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigaction(SIGPIPE, &dfl, NULL);
    sigaction(SIGCHLD, &dfl, NULL);
    int err = 0;
    if (status < 3 && (status = fcntl(status, F_DUPFD_CLOEXEC, 3)) < 0)
        _exit(127);
    if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0)
        err = errno;
    /* Nothing else of the caller's (its files, sockets, other children's pipes). */
    if (!err && status > 3)
        close_range(3, (unsigned)status - 1, 0);
    if (!err)
        close_range((unsigned)status + 1, ~0u, 0);
    if (!err && o->cwd && chdir(o->cwd))
        err = errno;
    if (!err) {
        execvpe(argv[0], (char *const *)argv, o->env ? o->env : environ);
        err = errno;
    }
    ssize_t w = write(status, &err, sizeof err);
    (void)w;
    _exit(127);
}

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

int proc_start(proc *p, const char *const argv[], const proc_opts *opts)
{
    memset(p, 0, sizeof *p);
    p->fd = -1;
    p->opts = *opts;
    const proc_opts *o = &p->opts;
    pid_t group = o->group == PROC_GROUP_TOOLS ? hls_tool_group() : 0;
    int in = open("/dev/null", O_RDONLY | O_CLOEXEC), out = -1, pipe_out[2] = {-1, -1},
        status[2] = {-1, -1};
    if (in < 0)
        return -1;
    if (o->output)
        out = open(o->output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    else if (pipe2(pipe_out, O_CLOEXEC) == 0)
        out = pipe_out[1];
    int err = out < 0 || pipe2(status, O_CLOEXEC) ? errno : 0;
    pid_t caller = getpid(), pid = err ? -1 : fork();
    if (pid == 0)
        child(argv, o, group, caller, in, out, status[1]);
    if (!err && pid < 0)
        err = errno;
    close_fd(&in);
    close_fd(&out);
    close_fd(&status[1]);
    if (pid > 0 && o->group != PROC_GROUP_CALLER && (o->group == PROC_GROUP_OWN || group > 0))
        setpgid(pid, o->group == PROC_GROUP_OWN ? pid : group); /* before any kill(-pid) */
    if (pid > 0) {
        int child_err;
        ssize_t n;
        while ((n = read(status[0], &child_err, sizeof child_err)) < 0 && errno == EINTR)
            ;
        if (n == (ssize_t)sizeof child_err) { /* it never ran the program */
            while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
                ;
            err = child_err;
        }
    }
    close_fd(&status[0]);
    if (err) {
        close_fd(&pipe_out[0]);
        errno = err;
        return -1;
    }
    p->pid = pid;
    p->fd = pipe_out[0];
    p->started = now_s();
    if (p->fd >= 0)
        fcntl(p->fd, F_SETFL, O_NONBLOCK);
    return 0;
}

/* Keeps what the child printed (the last capture_max bytes when that is set). */
static void keep(proc *p, const char *buf, size_t n)
{
    strbuf *sb = p->opts.capture;
    size_t max = p->opts.capture_max;
    if (!sb)
        return;
    if (max && n >= max) {
        buf += n - max;
        n = max;
    }
    if (max && sb->len + n > max) {
        size_t drop = sb->len + n - max;
        memmove(sb->data, sb->data + drop, sb->len - drop);
        sb->len -= drop;
        sb->data[sb->len] = '\0';
    }
    sb_appendn(sb, buf, n);
}

/* Reads what the output pipe has now, waiting up to ms for it; closes it at its end. */
static void read_output(proc *p, int ms)
{
    struct pollfd pfd = {.fd = p->fd, .events = POLLIN};
    poll(&pfd, 1, ms);
    char buf[4096];
    ssize_t n;
    while ((n = read(p->fd, buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR))
        if (n > 0)
            keep(p, buf, (size_t)n);
    if (n == 0)
        close_fd(&p->fd);
}

/* Kills the child (and its own group) at the time limit. */
static void time_out(proc *p)
{
    p->timed_out = 1;
    if (p->opts.group == PROC_GROUP_OWN)
        kill(-p->pid, SIGKILL);
    kill(p->pid, SIGKILL);
}

/* The child has ended (not reaped yet): its own group goes with it, then it is reaped;
 * the rest of its output is read. */
static int finish(proc *p)
{
    if (p->opts.group == PROC_GROUP_OWN && !p->lost)
        kill(-p->pid, SIGKILL); /* unreaped, its group cannot be another's */
    int st = 0, rc = 0;
    while (!p->lost && waitpid(p->pid, &st, 0) < 0)
        if (errno != EINTR) {
            rc = -1;
            break;
        }
    if (!p->lost && !rc) {
        p->exited = WIFEXITED(st);
        p->code = WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? WTERMSIG(st) : -1;
    }
    for (double t = now_s(); p->fd >= 0 && now_s() - t < DRAIN_SECONDS;)
        read_output(p, POLL_MS);
    close_fd(&p->fd);
    p->pid = 0;
    return rc;
}

/* 1 when the child has ended (it stays unreaped), 0 while it runs, -1 on an error;
 * blocks when asked to. */
static int ended(proc *p, int block)
{
    siginfo_t si;
    memset(&si, 0, sizeof si);
    if (waitid(P_PID, (id_t)p->pid, &si, WEXITED | WNOWAIT | (block ? 0 : WNOHANG)) == 0)
        return si.si_pid == p->pid;
    if (errno == ECHILD) {
        p->lost = 1; /* reaped behind our back (SIGCHLD ignored) */
        return 1;
    }
    return errno == EINTR ? 0 : -1;
}

int proc_done(proc *p)
{
    if (!p->pid)
        return -1;
    if (p->opts.time_limit > 0 && now_s() - p->started > p->opts.time_limit)
        time_out(p);
    int e = ended(p, 0);
    return e == 1 ? (finish(p) ? -1 : 1) : e;
}

int proc_wait(proc *p)
{
    if (!p->pid)
        return -1;
    double limit = p->opts.time_limit;
    for (;;) {
        int e = ended(p, p->fd < 0 && limit <= 0);
        if (e < 0)
            return -1;
        if (e)
            return finish(p);
        if (limit > 0 && now_s() - p->started > limit) {
            time_out(p);
            ended(p, 1);
            return finish(p);
        }
        if (p->fd >= 0)
            read_output(p, POLL_MS);
        else if (limit > 0)
            nanosleep(&(struct timespec){.tv_nsec = 2 * 1000 * 1000}, NULL);
    }
}

int proc_run(proc *p, const char *const argv[], const proc_opts *opts)
{
    if (proc_start(p, argv, opts))
        return -1;
    return proc_wait(p);
}

int proc_succeeded(const proc *p)
{
    return p->exited && p->code == 0;
}
