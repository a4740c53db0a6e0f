/* The step lines of the clhls command (tools/cli.c). Not on a terminal: one plain line
 * when a step begins and one when it ends, with its time, and no control character.
 * On a terminal (a pseudo-terminal here): a step shorter than a second shows no live
 * line, a longer one is redrawn in place ("\r", the text, clear to end of line) with
 * its growing time, and ends with one "... done in T s" or "... failed in T s" line.
 * The work of the step forks and runs children all the while (as clang and Verilator
 * do), and a forked child that prints to stderr never blocks on a lock the ticker
 * thread held. Prints PASS; exits 1 with what differed. */
#define _GNU_SOURCE
#include <errno.h>
#include <pty.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

static int failures;

#define EXPECT(cond, ...)                                                                  \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            printf("FAIL: %s: ", #cond);                                                   \
            printf(__VA_ARGS__);                                                           \
            printf("\n");                                                                  \
            failures++;                                                                    \
        }                                                                                  \
    } while (0)

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

/* Work that forks for `ms` milliseconds: children that exec /bin/true, and children
 * that print to stderr through stdio and exit without exec. */
static void forking_work(long ms)
{
    for (long t = 0; t < ms; t += 50) {
        pid_t pid = fork();
        if (pid == 0) {
            if (t % 100 == 0)
                execl("/bin/true", "true", (char *)NULL);
            fprintf(stderr, "%s", ""); /* would hang on a lock held by the ticker */
            _exit(0);
        }
        int status = 0;
        waitpid(pid, &status, 0);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
            failures++;
        sleep_ms(50);
    }
}

/* The steps both modes run. */
static void run_steps(void)
{
    cli_step_begin("short step %d", 1);
    sleep_ms(100);
    cli_step_end(1);
    cli_step_begin("long step");
    forking_work(1600);
    cli_step_end(1);
    cli_step_begin("failing step");
    cli_step_end(0);
    cli_step_end(1); /* no step running: nothing */
}

/* Runs run_steps in a child whose stderr is a pipe (tty = 0) or a pseudo-terminal,
 * and returns everything it wrote there. */
static char *capture(int tty)
{
    int fd[2] = {-1, -1};
    pid_t pid;
    if (tty) {
        pid = forkpty(&fd[0], NULL, NULL, NULL);
    } else {
        if (pipe(fd) != 0)
            return NULL;
        pid = fork();
    }
    if (pid < 0)
        return NULL;
    if (pid == 0) {
        if (!tty) {
            dup2(fd[1], STDERR_FILENO);
            close(fd[0]);
        }
        setenv("TERM", "xterm", 1);
        run_steps();
        _exit(failures ? 3 : 0);
    }
    if (!tty)
        close(fd[1]);
    size_t len = 0, cap = 1 << 16;
    char *out = calloc(1, cap);
    ssize_t n;
    while ((n = read(fd[0], out + len, cap - 1 - len)) > 0)
        len += (size_t)n; /* a pseudo-terminal ends with EIO when the child is gone */
    close(fd[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    EXPECT(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the steps' child: status %d",
           status);
    return out;
}

static int has(const char *text, const char *part)
{
    return strstr(text, part) != NULL;
}

/* Whether text has `part` followed by a time, "N.N s" (how long a step takes depends
 * on the machine's load, so the tests look at the form alone). */
static int has_time(const char *text, const char *part)
{
    for (const char *p = strstr(text, part); p; p = strstr(p + 1, part)) {
        const char *t = p + strlen(part);
        size_t digits = strspn(t, "0123456789");
        if (digits && t[digits] == '.' && t[digits + 1] >= '0' && t[digits + 1] <= '9' &&
            !strncmp(t + digits + 2, " s", 2))
            return 1;
    }
    return 0;
}

static int count(const char *text, const char *part)
{
    int n = 0;
    for (const char *p = strstr(text, part); p; p = strstr(p + 1, part))
        n++;
    return n;
}

int main(void)
{
    char *plain = capture(0);
    EXPECT(plain, "no output");
    if (plain) {
        EXPECT(has_time(plain, "clhls: short step 1 ...\nclhls: short step 1 done in "),
               "plain short step: [%s]", plain);
        EXPECT(has_time(plain, "clhls: long step ...\nclhls: long step done in "),
               "plain long step: [%s]", plain);
        EXPECT(has(plain, "clhls: failing step ...\nclhls: failing step failed in 0.0 s\n"),
               "plain failing step: [%s]", plain);
        EXPECT(!strpbrk(plain, "\r\033"), "control characters off a terminal: [%s]", plain);
    }
    char *term = capture(1);
    EXPECT(term, "no output");
    if (term) {
        /* A pseudo-terminal turns "\n" into "\r\n". */
        EXPECT(has_time(term, "clhls: short step 1 ... done in "), "[%s]", term);
        EXPECT(!has(term, "short step 1 ... 0."), "a live line for a short step: [%s]", term);
        EXPECT(has_time(term, "\rclhls: long step ... "), "no live line: [%s]", term);
        EXPECT(count(term, "\rclhls: long step ... ") >= 2, "the live line is not redrawn: [%s]",
               term);
        EXPECT(count(term, "\033[K") == count(term, "\rclhls: long step ... ") + 1,
               "a live line not cleared to the end of the line: [%s]", term);
        EXPECT(has_time(term, "\r\033[Kclhls: long step ... done in "),
               "the live line is not cleared at the end: [%s]", term);
        EXPECT(has(term, "clhls: failing step ... failed in 0.0 s\r\n"), "[%s]", term);
    }
    free(plain);
    free(term);
    if (failures)
        return 1;
    printf("PASS\n");
    return 0;
}
