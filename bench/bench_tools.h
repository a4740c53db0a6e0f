/* Shared by the benchmarks that run the `clhls` command (synthesis, hardware builds) and
 * read what it writes: running a tool with its output in a log file, reading a JSON
 * file, and numbers out of it. Header-only, beside bench.h; needs cJSON. */
#ifndef CLHLS_BENCH_TOOLS_H
#define CLHLS_BENCH_TOOLS_H

#include <cjson/cJSON.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* Runs argv (argv[0] a path) with stdout and stderr into log; returns its wait status,
 * or -1 when it could not start. */
static inline int bench_spawn(char *const argv[], const char *log)
{
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log, O_WRONLY | O_CREAT | O_TRUNC,
                                     0644);
    posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
    pid_t pid;
    int status = -1;
    if (posix_spawn(&pid, argv[0], &actions, NULL, argv, environ) == 0)
        waitpid(pid, &status, 0);
    posix_spawn_file_actions_destroy(&actions);
    return status;
}

/* The JSON document in the file at path, or NULL. */
static inline cJSON *bench_read_json(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *text = NULL;
    size_t cap = 0;
    FILE *mem = open_memstream(&text, &cap);
    int c;
    while (mem && (c = getc(f)) != EOF)
        putc(c, mem);
    if (mem)
        fclose(mem);
    fclose(f);
    cJSON *j = text ? cJSON_Parse(text) : NULL;
    free(text);
    return j;
}

/* Number o.a (o.a.b when b is given), or -1 when absent. */
static inline double bench_number(const cJSON *o, const char *a, const char *b)
{
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, a);
    if (b)
        x = cJSON_GetObjectItemCaseSensitive(x, b);
    return cJSON_IsNumber(x) ? x->valuedouble : -1;
}

/* Writes text to the file at path; returns 0 when done. */
static inline int bench_write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    int bad = !f || fputs(text, f) < 0;
    return (f && fclose(f) != 0) || bad;
}

#endif
