/* The process group of the tools a build runs (hls/toolgroup.c): clang, Verilator and
 * the C++ compilers join one group, which a small watcher process leads and kills
 * (SIGKILL, every member and what they started) as soon as the process that started
 * them ends, however it ends (exit, a crash, SIGKILL, its host program's death). It
 * lives in clhls_fsutil, so the compiler (hls/proc.c) and the simulator bridge
 * (sim-bridge/build.c) share one group per process. */
#ifndef CLHLS_HLS_TOOLGROUP_H
#define CLHLS_HLS_TOOLGROUP_H

#include <sys/types.h>

/* The group a tool started now joins (setpgid, POSIX_SPAWN_SETPGROUP); the watcher is
 * started at the first call. 0 when there is none (it could not be started): tools then
 * stay in the caller's group. Thread-safe. */
pid_t hls_tool_group(void);

/* Sends sig to the tools' group, when there is one; async-signal-safe (a handler of
 * SIGINT passes the user's interrupt on to tools that are outside the terminal's
 * foreground group). The watcher ignores SIGINT, SIGTERM, SIGHUP and SIGQUIT. */
void hls_tool_group_signal(int sig);

#endif
