/* The process group of the tools a build runs (common/toolgroup.c): clang, Verilator and
 * the C++ compilers join one group, which a small watcher process leads and kills
 * (SIGKILL, every member and what they started) as soon as the process that started
 * them ends, however it ends (exit, a crash, SIGKILL, its host program's death). The
 * process runner (common/proc.h, PROC_GROUP_TOOLS) puts them there, so the compiler and
 * the simulator bridge share one group per process. */
#ifndef CLHLS_COMMON_TOOLGROUP_H
#define CLHLS_COMMON_TOOLGROUP_H

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
