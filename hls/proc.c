/* Runs external tools (clang, Verilator) without a shell: fork + exec with stdout and
 * stderr captured through one pipe, so that their messages reach the build log, and
 * stdin from /dev/null. Each tool joins the process group of the build's tools
 * (hls/toolgroup.h), which ends with this process however it ends. */
#define _GNU_SOURCE /* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "passes.h"
#include "toolgroup.h"

int hls_run_tool(const char *const argv[], const char *cwd, strbuf *out)
{
    pid_t group = hls_tool_group();
    int fds[2];
    if (pipe2(fds, O_CLOEXEC)) {
        sb_printf(out, "cannot create a pipe: %s\n", strerror(errno));
        return -1;
    }
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        sb_printf(out, "cannot fork: %s\n", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        if (group > 0)
            setpgid(0, group); /* when the group is gone, the tool stays in ours */
        int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
        if (null >= 0)
            dup2(null, 0);
        dup2(fds[1], 1);
        dup2(fds[1], 2);
        if (cwd && chdir(cwd))
            _exit(126);
        execvp(argv[0], (char *const *)argv);
        dprintf(2, "cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    close(fds[1]);
    char buf[4096];
    ssize_t n;
    while ((n = read(fds[0], buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR))
        if (n > 0)
            sb_appendn(out, buf, (size_t)n);
    close(fds[0]);
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}
