/* The one way clhls runs another program (common/proc.c): the compiler's clang, the
 * simulator bridge's Verilator and C++ compilers, `clhls synth`'s Yosys and
 * place-and-route tools, and the runtime's compiler (the `clhls` tool in a child
 * process). No shell: an argument vector, the program found in PATH unless it names a
 * path. The child always gets stdin from /dev/null, its stdout and stderr together (in
 * a file, or through a pipe into a string buffer, all of it or its last bytes), and no
 * other descriptor of the caller's; signals blocked or SIGPIPE/SIGCHLD handlers of the
 * caller are not passed on. The caller chooses its process group, its working
 * directory and environment, a time limit, and whether it dies with the caller. */
#ifndef CLHLS_COMMON_PROC_H
#define CLHLS_COMMON_PROC_H

#include <stddef.h>
#include <sys/types.h>

#include "strbuf.h"

/* The process group a child runs in. */
typedef enum proc_group {
    PROC_GROUP_CALLER, /* the caller's: the terminal's Ctrl-C reaches it */
    PROC_GROUP_TOOLS,  /* the group of the process's build tools (toolgroup.h), killed
                        * when the process ends however it ends; the caller's when that
                        * group could not be made */
    PROC_GROUP_OWN,    /* a new group the child leads: whatever it started is killed
                        * with it at a time-out, and when it ends */
} proc_group;

typedef struct proc_opts {
    const char *cwd;           /* working directory; NULL: the caller's */
    char *const *env;          /* environment; NULL: the caller's */
    const char *output;        /* stdout and stderr into this file (created or emptied);
                                * NULL: through a pipe into capture */
    strbuf *capture;           /* (no output file) what the child prints; NULL: dropped */
    size_t capture_max;        /* (no output file) only the last capture_max bytes kept;
                                * 0: everything */
    double time_limit;         /* seconds; 0: none. Past it the child is killed (SIGKILL;
                                * with PROC_GROUP_OWN its group) and timed_out is set */
    proc_group group;
    int die_with_caller;       /* killed (SIGKILL) when the calling thread's process
                                * ends (PR_SET_PDEATHSIG); not run at all when that is
                                * gone before the child could ask */
} proc_opts;

/* A started child and, once it has ended, how. */
typedef struct proc {
    pid_t pid;                 /* the child; 0 when none runs */
    int fd;                    /* the read end of its output pipe, -1 when none */
    proc_opts opts;            /* as given to proc_start */
    double started;            /* when (CLOCK_MONOTONIC seconds) */
    int exited;                /* ended: 1 when it exited (status in code), 0 when a
                                * signal killed it (the signal in code) */
    int code;
    int timed_out;             /* killed at the time limit */
    int lost;                  /* someone else reaped it (the host program ignores
                                * SIGCHLD): how it ended is unknown */
} proc;

/* Starts argv (NULL-terminated). 0, or -1 with errno set (the program not found or not
 * executable, the working directory missing, no process or pipe) and nothing
 * running. */
int proc_start(proc *p, const char *const argv[], const proc_opts *opts);
/* Waits for the child's end, reading its output and keeping the time limit; fills in
 * exited/code/timed_out/lost. 0, or -1 when it could not be waited for. */
int proc_wait(proc *p);
/* Without blocking: 1 when the child has ended (and is waited for, as proc_wait), 0
 * while it runs, -1 when it cannot be waited for. For children whose output goes to
 * a file (a pipe would need reading). */
int proc_done(proc *p);
/* proc_start, then proc_wait: 0 once the child has run (look at how it ended), -1
 * (errno) when it could not be started or waited for. */
int proc_run(proc *p, const char *const argv[], const proc_opts *opts);
/* 1 when the child exited with status 0. */
int proc_succeeded(const proc *p);

#endif
