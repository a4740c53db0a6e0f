/* Tools end with the process that started them (toolgroup.h). A build's tools (clang,
 * Verilator, g++ and what they start in turn) would outlive a `clhls` killed in the
 * middle: prctl(PR_SET_PDEATHSIG) reaches only a direct child, and a process killed
 * with SIGKILL runs no handler. So the first tool a process starts forks a watcher
 * first: it leads a process group of its own, which every tool joins, and blocks
 * reading a pipe whose only writer is the starting process (close-on-exec, so no tool
 * holds it). The pipe reaches end of file when that process is gone, for whatever
 * reason; the watcher then kills its group, tools, their children and itself. A group
 * apart also keeps a pipeline's other processes (`clhls build ... | tee`) out of
 * reach; the terminal's Ctrl-C, which reaches the foreground group only, is passed on
 * by clhls's handler (hls_tool_group_signal). */
#define _GNU_SOURCE /* pipe2, close_range */
#include "toolgroup.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

static volatile sig_atomic_t group; /* the watcher's process id: the tools' group */
static pthread_once_t started = PTHREAD_ONCE_INIT;

/* The watcher, in the child between fork and its end: async-signal-safe calls only. */
static _Noreturn void watch(int rd, int wr)
{
    close(wr);
    setpgid(0, 0);
    /* Only the end of the pipe ends it: not the terminal's or a polite signal of the
     * group's (hls_tool_group_signal passes SIGINT to every member). */
    struct sigaction ign = {.sa_handler = SIG_IGN};
    sigemptyset(&ign.sa_mask);
    const int ignored[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE};
    for (size_t i = 0; i < sizeof ignored / sizeof *ignored; i++)
        sigaction(ignored[i], &ign, NULL);
    /* Nothing of the starting process held open (its output pipes, its files). */
    if (rd < 3) {
        int moved = fcntl(rd, F_DUPFD, 3);
        if (moved < 0)
            _exit(1);
        rd = moved;
    }
    int null = open("/dev/null", O_RDWR);
    if (null >= 0) {
        dup2(null, 0);
        dup2(null, 1);
        dup2(null, 2);
    }
    if (rd > 3)
        close_range(3, (unsigned)rd - 1, 0);
    close_range((unsigned)rd + 1, ~0u, 0);
    char c;
    ssize_t n;
    while ((n = read(rd, &c, 1)) != 0 && (n > 0 || errno == EINTR))
        ;
    kill(0, SIGKILL); /* the group: every tool still running, then the watcher */
    _exit(0);
}

static void start_watcher(void)
{
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0)
        return;
    pid_t pid = fork();
    if (pid == 0)
        watch(fds[0], fds[1]);
    close(fds[0]);
    if (pid < 0) {
        close(fds[1]);
        return;
    }
    /* Also here, so that the group exists before the first tool joins it; the write
     * end stays open for the life of this process. */
    setpgid(pid, pid);
    group = pid;
}

pid_t hls_tool_group(void)
{
    pthread_once(&started, start_watcher);
    return group;
}

void hls_tool_group_signal(int sig)
{
    pid_t g = group;
    if (g > 0)
        kill(-g, sig);
}
