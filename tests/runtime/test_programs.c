/* Runtime tests of building programs, through the real ocl-icd loader: the compiler
 * runs in a child process (the `clhls` tool), so the ICD never links or loads libLLVM
 * (its ELF dynamic section and the process's mappings after a build); a compiler that
 * crashes, exits without a result or runs past CLHLS_COMPILE_TIMEOUT is
 * CL_BUILD_PROGRAM_FAILURE with a message in the build log; the log of a bad source
 * keeps clang's diagnostics with file:line:col and caret; bad options are
 * CL_INVALID_BUILD_OPTIONS; several threads build different programs at once (each its
 * own child) and run them; clBuildProgram's notify callback runs. Then separate
 * compilation: clCompileProgram with embedded headers, clLinkProgram of objects and
 * libraries, their binaries, options and errors. Loaded programs add no thread; with
 * CLHLS_DEVICE_TYPE=gpu the device is a GPU a kernel runs on. */
#define _GNU_SOURCE /* mkdtemp, setenv */
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <criterion/criterion.h>

#include "runtime_test.h"
#include <dirent.h>
#include <elf.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>

static cl_platform_id platform;
static cl_device_id device;
static cl_context ctx;
static cl_command_queue queue;

static void setup(void)
{
    rt_test_open(&platform, &device, &ctx);
    cl_int err;
    queue = clCreateCommandQueue(ctx, device, 0, &err);
    cr_assert_eq(err, CL_SUCCESS);
}

static void teardown(void)
{
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
}

TestSuite(programs, .init = setup, .fini = teardown, .timeout = 900);

/* The build log of p (free it). */
static char *build_log(cl_program p)
{
    size_t len = 0;
    cr_assert_eq(clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &len), 0);
    char *log = calloc(1, len + 1);
    cr_assert_eq(clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, len, log, NULL), 0);
    return log;
}

static cl_program from_source(const char *src)
{
    cl_int err;
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    cr_assert_eq(err, CL_SUCCESS);
    return p;
}

static cl_build_status build_status(cl_program p)
{
    cl_build_status st;
    cr_assert_eq(clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_STATUS, sizeof st, &st, NULL), 0);
    return st;
}

/* Runs kernel `name` of p (one buffer argument of n ints) and returns the buffer. */
static int *run_kernel(cl_program p, const char *name, size_t n)
{
    cl_int err;
    cl_kernel k = clCreateKernel(p, name, &err);
    cr_assert_eq(err, CL_SUCCESS, "clCreateKernel(%s): %d", name, err);
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, n * sizeof(int), NULL, &err);
    cr_assert_eq(err, CL_SUCCESS);
    cr_assert_eq(clSetKernelArg(k, 0, sizeof buf, &buf), CL_SUCCESS);
    cr_assert_eq(clEnqueueNDRangeKernel(queue, k, 1, NULL, &n, NULL, 0, NULL, NULL), CL_SUCCESS);
    int *out = calloc(n, sizeof *out);
    cr_assert_eq(clEnqueueReadBuffer(queue, buf, CL_TRUE, 0, n * sizeof(int), out, 0, NULL, NULL),
                 CL_SUCCESS);
    clReleaseMemObject(buf);
    clReleaseKernel(k);
    return out;
}

/* ---- the compiler out of process ---- */

/* The path of the ICD library, from the .icd file the loader was given. */
static void icd_library(char *buf, size_t len)
{
    const char *icd = getenv("OCL_ICD_VENDORS");
    cr_assert(icd && *icd);
    FILE *f = fopen(icd, "r");
    cr_assert(f, "cannot open %s", icd);
    cr_assert(fgets(buf, (int)len, f));
    fclose(f);
    buf[strcspn(buf, "\n")] = '\0';
}

/* The ICD's ELF dynamic section names no LLVM library (nor does anything the process
 * maps after a build: a build runs the compiler in a child). */
Test(programs, icd_does_not_link_llvm)
{
    char lib[4096];
    icd_library(lib, sizeof lib);
    FILE *f = fopen(lib, "rb");
    cr_assert(f, "cannot open %s", lib);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *elf = malloc((size_t)size);
    cr_assert_eq(fread(elf, 1, (size_t)size, f), (size_t)size);
    fclose(f);
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)elf;
    cr_assert(!memcmp(eh->e_ident, ELFMAG, SELFMAG) && eh->e_ident[EI_CLASS] == ELFCLASS64);
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(elf + eh->e_shoff);
    int needed = 0;
    for (int i = 0; i < eh->e_shnum; i++) {
        if (sh[i].sh_type != SHT_DYNAMIC)
            continue;
        const char *strtab = (const char *)elf + sh[sh[i].sh_link].sh_offset;
        const Elf64_Dyn *dyn = (const Elf64_Dyn *)(elf + sh[i].sh_offset);
        for (size_t j = 0; j < sh[i].sh_size / sizeof *dyn && dyn[j].d_tag != DT_NULL; j++) {
            if (dyn[j].d_tag != DT_NEEDED)
                continue;
            needed++;
            cr_assert_null(strstr(strtab + dyn[j].d_un.d_val, "LLVM"), "the ICD needs %s",
                           strtab + dyn[j].d_un.d_val);
            cr_assert_null(strstr(strtab + dyn[j].d_un.d_val, "clang"), "the ICD needs %s",
                           strtab + dyn[j].d_un.d_val);
        }
    }
    cr_assert_gt(needed, 0, "no DT_NEEDED entry found in %s", lib);
    free(elf);

    cl_program p = from_source("__kernel void one(__global int *a) { a[get_global_id(0)] = 1; }");
    cr_assert_eq(clBuildProgram(p, 1, &device, "", NULL, NULL), CL_SUCCESS);
    int *out = run_kernel(p, "one", 4);
    cr_assert_eq(out[3], 1);
    free(out);
    clReleaseProgram(p);
    f = fopen("/proc/self/maps", "r");
    char line[8192];
    int icd_mapped = 0;
    while (fgets(line, sizeof line, f)) {
        cr_assert_null(strstr(line, "libLLVM"), "libLLVM is mapped: %s", line);
        icd_mapped |= strstr(line, strrchr(lib, '/')) != NULL;
    }
    fclose(f);
    cr_assert(icd_mapped, "the ICD %s is not mapped", lib);
}

/* The log of a bad source is clang's, with file:line:col, the line and a caret. */
Test(programs, build_log_has_clang_diagnostics)
{
    cl_program p = from_source("__kernel void k(__global int *a)\n{\n    a[0] = undeclared;\n}\n");
    cr_assert_eq(clBuildProgram(p, 1, &device, NULL, NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
    cr_assert_eq(build_status(p), CL_BUILD_ERROR);
    char *log = build_log(p);
    cr_assert(strstr(log, "<source>:3:12: error: use of undeclared identifier 'undeclared'"),
              "log: %s", log);
    cr_assert(strstr(log, "    a[0] = undeclared;\n           ^"), "log: %s", log);
    free(log);
    cr_assert_eq(clBuildProgram(p, 1, &device, "-cl-no-such-option", NULL, NULL),
                 CL_INVALID_BUILD_OPTIONS);
    log = build_log(p);
    cr_assert(strstr(log, "unknown build option '-cl-no-such-option'"), "log: %s", log);
    free(log);
    clReleaseProgram(p);
}

/* A compiler that runs past CLHLS_COMPILE_TIMEOUT is stopped: a build failure. */
Test(programs, compiler_time_limit)
{
    /* In a cache of its own: nothing of the stopped build may be left there. */
    char *cache = strdup(getenv("CLHLS_CACHE_DIR")), fresh[] = "/tmp/clhls-rt-cache-XXXXXX";
    cr_assert(mkdtemp(fresh));
    setenv("CLHLS_CACHE_DIR", fresh, 1);
    setenv("CLHLS_COMPILE_TIMEOUT", "0.3", 1);
    /* Never built in that cache: the compiler really runs. */
    cl_program p = from_source("__kernel void slow(__global int *a) { a[get_global_id(0)] = 7; }\n");
    time_t t0 = time(NULL);
    cr_assert_eq(clBuildProgram(p, 1, &device, NULL, NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
    cr_assert_lt(time(NULL) - t0, 10, "the time limit did not stop the compiler");
    cr_assert_eq(build_status(p), CL_BUILD_ERROR);
    char *log = build_log(p);
    cr_assert(strstr(log, "clhls: the compiler ran longer than the time limit of 0.3 s "
                          "(CLHLS_COMPILE_TIMEOUT) and was stopped"), "log: %s", log);
    free(log);
    DIR *d = opendir(fresh);
    cr_assert(d);
    for (struct dirent *de; (de = readdir(d));)
        cr_assert(strncmp(de->d_name, "tmp-", 4), "left in the cache: %s", de->d_name);
    closedir(d);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", fresh);
    cr_assert_eq(system(cmd), 0);
    /* The program can be built again once the limit allows it. */
    setenv("CLHLS_CACHE_DIR", cache, 1);
    free(cache);
    setenv("CLHLS_COMPILE_TIMEOUT", "0", 1);
    cr_assert_eq(clBuildProgram(p, 1, &device, NULL, NULL, NULL), CL_SUCCESS);
    cr_assert_eq(build_status(p), CL_BUILD_SUCCESS);
    clReleaseProgram(p);
}

/* Writes an executable script into a new directory; returns its path (free it). */
static char *script(const char *text)
{
    char dir[] = "/tmp/clhls-rt-compiler-XXXXXX";
    cr_assert(mkdtemp(dir));
    char *path = malloc(strlen(dir) + 16);
    sprintf(path, "%s/clhls", dir);
    FILE *f = fopen(path, "w");
    cr_assert(f);
    fputs(text, f);
    fclose(f);
    chmod(path, 0755);
    return path;
}

static void remove_script(char *path)
{
    unlink(path);
    *strrchr(path, '/') = '\0';
    rmdir(path);
    free(path);
}

/* CLHLS_COMPILER names the compiler: one that dies of a signal, or exits without a
 * result, or does not exist, makes a build failure that says so; the host lives on. */
Test(programs, compiler_crash_is_a_build_failure)
{
    char *crash = script("#!/bin/sh\necho 'about to crash' >&2\nkill -SEGV $$\n");
    setenv("CLHLS_COMPILER", crash, 1);
    cl_program p = from_source("__kernel void k(__global int *a) { a[0] = 1; }\n");
    cr_assert_eq(clBuildProgram(p, 1, &device, NULL, NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
    cr_assert_eq(build_status(p), CL_BUILD_ERROR);
    char *log = build_log(p);
    cr_assert(strstr(log, "clhls: the compiler was killed by signal 11 (Segmentation fault)"),
              "log: %s", log);
    cr_assert(strstr(log, "about to crash"), "log: %s", log);
    free(log);
    remove_script(crash);

    char *quits = script("#!/bin/sh\necho 'no result today'\nexit 3\n");
    setenv("CLHLS_COMPILER", quits, 1);
    cr_assert_eq(clBuildProgram(p, 1, &device, NULL, NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
    log = build_log(p);
    cr_assert(strstr(log, "exited with status 3 and no result"), "log: %s", log);
    cr_assert(strstr(log, "no result today"), "log: %s", log);
    free(log);
    remove_script(quits);

    setenv("CLHLS_COMPILER", "/nonexistent/clhls", 1);
    cr_assert_eq(clBuildProgram(p, 1, &device, NULL, NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
    log = build_log(p);
    cr_assert(strstr(log, "CLHLS_COMPILER=/nonexistent/clhls is not an executable file"),
              "log: %s", log);
    free(log);
    clReleaseProgram(p);
}

/* Process pid exists and is not a zombie. */
static int alive(long pid)
{
    char path[64], stat[512];
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t n = fread(stat, 1, sizeof stat - 1, f);
    fclose(f);
    stat[n] = 0;
    const char *state = strrchr(stat, ')');
    return state && state[1] == ' ' && state[2] != 'Z' && state[2] != 'X';
}

/* A host program killed in the middle of clBuildProgram takes its compiler with it: a
 * compiler script records its process id and sleeps; the host program is killed; the
 * compiler is gone soon after. */
Test(programs, compiler_dies_with_its_host_program)
{
    char pid_file[] = "/tmp/clhls-rt-pid-XXXXXX";
    int fd = mkstemp(pid_file);
    cr_assert(fd >= 0);
    close(fd);
    char text[256];
    snprintf(text, sizeof text, "#!/bin/sh\necho $$ > %s.tmp\nmv %s.tmp %s\nexec sleep 60\n",
             pid_file, pid_file, pid_file);
    char *sleeper = script(text);
    unlink(pid_file);
    setenv("CLHLS_COMPILER", sleeper, 1);
    pid_t host = fork();
    cr_assert(host >= 0);
    if (host == 0) {
        execl(BUILD_ONE, BUILD_ONE, (char *)NULL);
        _exit(127);
    }
    unsetenv("CLHLS_COMPILER");
    long compiler = 0;
    for (int i = 0; i < 3000 && !compiler; i++) { /* up to 30 s */
        FILE *f = fopen(pid_file, "r");
        if (f) {
            if (fscanf(f, "%ld", &compiler) != 1)
                compiler = 0;
            fclose(f);
        }
        if (!compiler)
            usleep(10000);
    }
    cr_assert(compiler > 0, "the compiler never started");
    cr_assert(alive(compiler), "the compiler is running");
    kill(host, SIGKILL);
    waitpid(host, NULL, 0);
    int gone = 0;
    for (int i = 0; i < 500 && !gone; i++) { /* up to 5 s; init reaps it */
        gone = !alive(compiler);
        if (!gone)
            usleep(10000);
    }
    if (!gone)
        kill((pid_t)compiler, SIGKILL);
    unlink(pid_file);
    remove_script(sleeper);
    cr_assert(gone, "the compiler outlived its host program");
}

/* The living processes other than this one whose environment holds mark: their
 * number, their names (comm) in names, the first one named want (when given) in
 * *found. */
static int marked(const char *mark, const char *want, long *found, char *names, size_t len)
{
    DIR *d = opendir("/proc");
    cr_assert(d);
    static char env[1 << 18];
    size_t used = 0;
    int n = 0;
    names[0] = '\0';
    struct dirent *e;
    while ((e = readdir(d))) {
        char *end;
        long pid = strtol(e->d_name, &end, 10);
        if (*end || pid <= 0 || pid == (long)getpid())
            continue;
        char path[64], comm[64] = "";
        snprintf(path, sizeof path, "/proc/%ld/environ", pid);
        FILE *f = fopen(path, "rb");
        if (!f)
            continue;
        size_t got = fread(env, 1, sizeof env, f);
        fclose(f);
        if (!memmem(env, got, mark, strlen(mark)) || !alive(pid))
            continue;
        snprintf(path, sizeof path, "/proc/%ld/comm", pid);
        if ((f = fopen(path, "r"))) {
            if (!fgets(comm, sizeof comm, f))
                comm[0] = '\0';
            fclose(f);
        }
        comm[strcspn(comm, "\n")] = '\0';
        if (want && found && !*found && !strcmp(comm, want))
            *found = pid;
        int w = snprintf(names + used, len - used, "%s%s(%ld)", n ? " " : "", comm, pid);
        if (w > 0 && (size_t)w < len - used)
            used += (size_t)w;
        n++;
    }
    closedir(d);
    return n;
}

/* The real compiler too: a host program killed (SIGKILL) in the middle of its build
 * leaves no process of that build behind, neither the `clhls` child nor its tools nor
 * what they started (common/toolgroup.h). The C++ compiler is g++ behind a script that
 * first sleeps a minute (a slow compilation: a real one of a small kernel ends within
 * the wait below anyway); the host is killed once the sleep, a grandchild of `clhls`,
 * runs. The build's processes are told apart by a variable in their environment, and a
 * new kernel makes the build run its tools. */
Test(programs, build_processes_die_with_their_host_program)
{
    char mark[128], src[256], cxx_var[256], names[4096];
    snprintf(mark, sizeof mark, "CLHLS_TEST_KILLED_BUILD=%ld-%ld", (long)getpid(),
             (long)time(NULL));
    snprintf(src, sizeof src,
             "/* %s */\n__kernel void killed(__global int *a) { a[get_global_id(0)] = 7; }\n",
             mark);
    char *slow = script("#!/bin/sh\nsleep 60\nexec g++ \"$@\"\n");
    snprintf(cxx_var, sizeof cxx_var, "CLHLS_CXX=%s", slow);
    extern char **environ;
    size_t nenv = 0;
    while (environ[nenv])
        nenv++;
    char **env = calloc(nenv + 3, sizeof *env);
    cr_assert(env);
    memcpy(env, environ, nenv * sizeof *env);
    env[nenv] = mark;
    env[nenv + 1] = cxx_var;
    char *argv[] = {BUILD_ONE, src, NULL};
    pid_t host = fork();
    cr_assert(host >= 0);
    if (host == 0) {
        execve(BUILD_ONE, argv, env);
        _exit(127);
    }
    free(env);
    long sleeper = 0;
    int ended = 0;
    for (int i = 0; i < 12000 && !sleeper && !ended; i++) { /* up to 240 s */
        marked(mark, "sleep", &sleeper, names, sizeof names);
        ended = !sleeper && waitpid(host, NULL, WNOHANG) == host;
        if (!sleeper && !ended)
            usleep(20000);
    }
    if (!ended) {
        kill(host, SIGKILL);
        waitpid(host, NULL, 0);
    }
    char before[4096];
    snprintf(before, sizeof before, "%s", names);
    int left = 1;
    for (int i = 0; i < 500 && left; i++) { /* up to 10 s */
        left = marked(mark, NULL, NULL, names, sizeof names);
        if (left)
            usleep(20000);
    }
    if (left) { /* not to leave them running: the test fails anyway */
        char *p = names;
        while ((p = strchr(p, '(')))
            kill((pid_t)strtol(p + 1, &p, 10), SIGKILL);
    }
    remove_script(slow);
    cr_assert(sleeper, "the build's C++ compiler never ran (%s)",
              ended ? "the host program ended first" : "time out");
    cr_assert_eq(left, 0, "left running: %s (running when the host was killed: %s)", names,
                 before);
}

/* The child inherits no file descriptor of the host program (only stdin, stdout and
 * stderr): a compiler script lists its descriptors into the log. */
Test(programs, compiler_inherits_no_descriptors)
{
    char *lister = script("#!/bin/sh\nexec ls /proc/self/fd\n");
    setenv("CLHLS_COMPILER", lister, 1);
    FILE *held = tmpfile(); /* a descriptor of the host program's own */
    cr_assert(held);
    cl_program p = from_source("__kernel void k(__global int *a) { a[0] = 1; }\n");
    cr_assert_eq(clBuildProgram(p, 1, &device, NULL, NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
    char *log = build_log(p);
    const char *out = strstr(log, "last output:\n");
    cr_assert(out, "log: %s", log);
    /* 0, 1, 2 and the descriptor ls opens to read the directory (3). */
    cr_assert_str_eq(out + strlen("last output:\n"), "0\n1\n2\n3\n", "log: %s", log);
    free(log);
    fclose(held);
    clReleaseProgram(p);
    remove_script(lister);
}

/* Several threads build different programs at once (each its own child) and run
 * them; one with a notify callback. */
typedef struct builder {
    cl_program program;         /* the program it builds */
    int value;                  /* what its kernel writes */
    cl_int rc;                  /* clBuildProgram's result */
    int notified;               /* the callback ran */
} builder;

static void CL_CALLBACK notify(cl_program p, void *data)
{
    builder *b = data;
    cr_assert_eq(p, b->program);
    b->notified++;
}

static void *build_thread(void *arg)
{
    builder *b = arg;
    b->rc = clBuildProgram(b->program, 1, &device, "", b->value % 2 ? notify : NULL,
                           b->value % 2 ? b : NULL);
    return NULL;
}

Test(programs, parallel_builds)
{
    enum { N = 3 };
    builder b[N];
    pthread_t t[N];
    for (int i = 0; i < N; i++) {
        char src[256];
        snprintf(src, sizeof src,
                 "__kernel void fill%d(__global int *a) { a[get_global_id(0)] = %d + "
                 "(int)get_global_id(0); }\n", i, 100 * (i + 1));
        b[i] = (builder){.program = from_source(src), .value = i};
    }
    for (int i = 0; i < N; i++)
        cr_assert_eq(pthread_create(&t[i], NULL, build_thread, &b[i]), 0);
    for (int i = 0; i < N; i++)
        pthread_join(t[i], NULL);
    for (int i = 0; i < N; i++) {
        if (b[i].rc != CL_SUCCESS) {
            char *log = build_log(b[i].program);
            cr_assert_fail("build %d: %d\n%s", i, b[i].rc, log);
        }
        cr_assert_eq(b[i].notified, i % 2);
        char name[16];
        snprintf(name, sizeof name, "fill%d", i);
        int *out = run_kernel(b[i].program, name, 8);
        for (int j = 0; j < 8; j++)
            cr_assert_eq(out[j], 100 * (i + 1) + j);
        free(out);
        clReleaseProgram(b[i].program);
    }
}

/* The threads of this process. */
static int thread_count(void)
{
    DIR *d = opendir("/proc/self/task");
    cr_assert(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

/* A loaded program adds no host thread: its model is single-threaded, and Verilator's
 * context would otherwise start a pool of (cores - 1) threads for every model loaded
 * (2 -> 6 threads after four programs on two cores). Loading and running four
 * programs leaves the count where the first left it. */
Test(programs, loaded_programs_add_no_threads)
{
    static const char *src = "__kernel void k(__global int *a) { a[0] = 1; }";
    enum { N = 4 };
    cl_program p[N];
    int before = 0;
    for (int i = 0; i < N; i++) {
        p[i] = from_source(src);
        cl_int rc = clBuildProgram(p[i], 1, &device, "", NULL, NULL);
        if (rc != CL_SUCCESS)
            rt_test_build_failed(device, p[i], rc);
        int *out = run_kernel(p[i], "k", 1); /* the device's worker runs from the first */
        cr_assert_eq(out[0], 1);
        free(out);
        if (i == 0)
            before = thread_count();
    }
    cr_assert_eq(thread_count(), before, "%d programs loaded: %d threads, %d with one", N,
                 thread_count(), before);
    for (int i = 0; i < N; i++)
        clReleaseProgram(p[i]);
}

/* ---- headers of the host program's files ---- */

/* Writes "#define VALUE v" (always the same length) to path. */
static void write_header(const char *path, int v)
{
    FILE *f = fopen(path, "w");
    cr_assert(f, "cannot write %s", path);
    fprintf(f, "#define VALUE %03d\n", v);
    fclose(f);
}

/* Builds src with options and returns what its kernel "value" writes. */
static int built_value(const char *src, const char *options)
{
    cl_program p = from_source(src);
    cl_int rc = clBuildProgram(p, 1, &device, options, NULL, NULL);
    if (rc != CL_SUCCESS)
        rt_test_build_failed(device, p, rc);
    int *out = run_kernel(p, "value", 1);
    int v = out[0];
    free(out);
    clReleaseProgram(p);
    return v;
}

/* Include directories in the options are relative to the host program's working
 * directory, as with every implementation (-I DIR, -IDIR, quoted or not; also for
 * clCompileProgram), and the headers' contents are part of the build: a header
 * edited makes a new build, not the cached one of its old contents; edited back, the
 * entry of those contents serves again. */
Test(programs, include_paths_relative_to_the_host_program)
{
    char dir[] = "/tmp/clhls-rt-include-XXXXXX", sub[600], header[700], cwd[4096];
    cr_assert(mkdtemp(dir));
    snprintf(sub, sizeof sub, "%s/my inc", dir);
    cr_assert_eq(mkdir(sub, 0755), 0);
    snprintf(header, sizeof header, "%s/main.h", sub);
    cr_assert(getcwd(cwd, sizeof cwd));
    cr_assert_eq(chdir(dir), 0);
    /* A new kernel each run, so that the first build is one. */
    char by_dir[512], by_path[512];
    snprintf(by_dir, sizeof by_dir,
             "/* %ld %ld */\n#include \"./main.h\"\n"
             "__kernel void value(__global int *a) { a[0] = VALUE; }\n",
             (long)getpid(), (long)time(NULL));
    snprintf(by_path, sizeof by_path,
             "/* %ld %ld */\n#include \"my inc/main.h\"\n"
             "__kernel void value(__global int *a) { a[0] = VALUE; }\n",
             (long)getpid(), (long)time(NULL));
    write_header(header, 101);
    cr_assert_eq(built_value(by_dir, "-I\"my inc\""), 101);
    cr_assert_eq(built_value(by_path, "-I ."), 101);
    /* Edited: the same source and options build the new contents. */
    write_header(header, 202);
    cr_assert_eq(built_value(by_dir, "-I\"my inc\""), 202);
    cr_assert_eq(built_value(by_path, "-cl-mad-enable -I '.'"), 202);
    /* Edited back: the first contents again. */
    write_header(header, 101);
    cr_assert_eq(built_value(by_dir, "-I\"my inc\""), 101);
    /* clCompileProgram searches the same directories. */
    cl_program p = from_source(by_path);
    cl_int rc = clCompileProgram(p, 1, &device, "-I.", 0, NULL, NULL, NULL, NULL);
    if (rc != CL_SUCCESS)
        rt_test_build_failed(device, p, rc);
    clReleaseProgram(p);
    cr_assert_eq(chdir(cwd), 0);
    unlink(header);
    rmdir(sub);
    rmdir(dir);
}

/* ---- separate compilation ---- */

/* Unit A's kernel calls a function of unit B. */
static const char *unit_a =
    "int helper(int x);\n"
    "__kernel void use_helper(__global int *a)\n"
    "{\n"
    "    a[get_global_id(0)] = helper((int)get_global_id(0));\n"
    "}\n";
static const char *unit_b = "int helper(int x) { return 3 * x + 1; }\n";

static cl_program compiled(const char *src, const char *options)
{
    cl_program p = from_source(src);
    cl_int rc = clCompileProgram(p, 1, &device, options, 0, NULL, NULL, NULL, NULL);
    if (rc != CL_SUCCESS) {
        char *log = build_log(p);
        cr_assert_fail("clCompileProgram: %d\n%s", rc, log);
    }
    return p;
}

static cl_program_binary_type binary_type(cl_program p)
{
    cl_program_binary_type t = 99;
    cr_assert_eq(clGetProgramBuildInfo(p, device, CL_PROGRAM_BINARY_TYPE, sizeof t, &t, NULL), 0);
    return t;
}

static cl_program linked(cl_uint n, const cl_program *inputs, const char *options)
{
    cl_int err = 99;
    cl_program p = clLinkProgram(ctx, 1, &device, options, n, inputs, NULL, NULL, &err);
    cr_assert_not_null(p, "clLinkProgram: %d", err);
    if (err != CL_SUCCESS) {
        char *log = build_log(p);
        cr_assert_fail("clLinkProgram: %d\n%s", err, log);
    }
    return p;
}

static void check_use_helper(cl_program exe)
{
    int *out = run_kernel(exe, "use_helper", 16);
    for (int i = 0; i < 16; i++)
        cr_assert_eq(out[i], 3 * i + 1, "a[%d] = %d", i, out[i]);
    free(out);
}

Test(programs, compiler_and_linker_available)
{
    cl_bool yes = CL_FALSE;
    cr_assert_eq(clGetDeviceInfo(device, CL_DEVICE_COMPILER_AVAILABLE, sizeof yes, &yes, NULL), 0);
    cr_assert_eq(yes, CL_TRUE);
    yes = CL_FALSE;
    cr_assert_eq(clGetDeviceInfo(device, CL_DEVICE_LINKER_AVAILABLE, sizeof yes, &yes, NULL), 0);
    cr_assert_eq(yes, CL_TRUE);
}

static int compile_notified, link_notified;
static void CL_CALLBACK on_compile(cl_program p, void *data) { compile_notified += data == &compile_notified; }
static void CL_CALLBACK on_link(cl_program p, void *data) { link_notified += data == &link_notified; }

/* Two source units, one kernel calling a function of the other, compiled apart and
 * linked into an executable that runs. */
Test(programs, two_units_linked)
{
    cl_program a = from_source(unit_a);
    cr_assert_eq(binary_type(a), CL_PROGRAM_BINARY_TYPE_NONE);
    cr_assert_eq(clCompileProgram(a, 1, &device, "-DUNUSED=1", 0, NULL, NULL, on_compile,
                                  &compile_notified), CL_SUCCESS);
    cr_assert_eq(compile_notified, 1);
    cr_assert_eq(build_status(a), CL_BUILD_SUCCESS);
    cr_assert_eq(binary_type(a), CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
    char opts[64] = "";
    cr_assert_eq(clGetProgramBuildInfo(a, device, CL_PROGRAM_BUILD_OPTIONS, sizeof opts, opts,
                                       NULL), 0);
    cr_assert_str_eq(opts, "-DUNUSED=1");
    /* A compiled object is no executable. */
    size_t nk;
    cr_assert_eq(clGetProgramInfo(a, CL_PROGRAM_NUM_KERNELS, sizeof nk, &nk, NULL),
                 CL_INVALID_PROGRAM_EXECUTABLE);
    cl_int kerr = 0;
    cr_assert_null(clCreateKernel(a, "use_helper", &kerr));
    cr_assert_eq(kerr, CL_INVALID_PROGRAM_EXECUTABLE);
    cl_program b = compiled(unit_b, NULL);
    cl_program in[2] = {a, b};
    cl_int err = 99;
    cl_program exe = clLinkProgram(ctx, 1, &device, NULL, 2, in, on_link, &link_notified, &err);
    if (err != CL_SUCCESS) {
        char *log = build_log(exe);
        cr_assert_fail("clLinkProgram: %d\n%s", err, log);
    }
    cr_assert_eq(link_notified, 1);
    cr_assert_eq(binary_type(exe), CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
    cr_assert_eq(build_status(exe), CL_BUILD_SUCCESS);
    cr_assert_eq(clGetProgramInfo(exe, CL_PROGRAM_NUM_KERNELS, sizeof nk, &nk, NULL), 0);
    cr_assert_eq(nk, 1);
    check_use_helper(exe);
    /* A linked program is not built again. */
    cr_assert_eq(clBuildProgram(exe, 1, &device, NULL, NULL, NULL), CL_INVALID_OPERATION);
    clReleaseProgram(exe);
    clReleaseProgram(a);
    clReleaseProgram(b);
}

/* An embedded header included by its name (with a directory), and the header rules. */
Test(programs, embedded_header)
{
    cl_program h = from_source("#define SCALE 5\n"
                               "static int scaled(int x) { return SCALE * x; }\n");
    cl_program p = from_source("#include \"inc/scale.h\"\n"
                               "__kernel void by_header(__global int *a)\n"
                               "{\n"
                               "    a[get_global_id(0)] = scaled((int)get_global_id(0));\n"
                               "}\n");
    const char *name = "inc/scale.h";
    cr_assert_eq(clCompileProgram(p, 1, &device, NULL, 1, &h, NULL, NULL, NULL), CL_INVALID_VALUE);
    cr_assert_eq(clCompileProgram(p, 1, &device, NULL, 0, &h, &name, NULL, NULL), CL_INVALID_VALUE);
    const char *bad = "../scale.h";
    cr_assert_eq(clCompileProgram(p, 1, &device, NULL, 1, &h, &bad, NULL, NULL), CL_INVALID_VALUE);
    /* Without the header: clang's error. */
    cr_assert_eq(clCompileProgram(p, 1, &device, NULL, 0, NULL, NULL, NULL, NULL),
                 CL_COMPILE_PROGRAM_FAILURE);
    cr_assert_eq(build_status(p), CL_BUILD_ERROR);
    char *log = build_log(p);
    cr_assert(strstr(log, "<source>:1:10: fatal error: 'inc/scale.h' file not found"), "log: %s", log);
    free(log);
    cr_assert_eq(clCompileProgram(p, 1, &device, NULL, 1, &h, &name, NULL, NULL), CL_SUCCESS);
    cl_program exe = linked(1, &p, NULL);
    int *out = run_kernel(exe, "by_header", 8);
    for (int i = 0; i < 8; i++)
        cr_assert_eq(out[i], 5 * i);
    free(out);
    clReleaseProgram(exe);
    clReleaseProgram(p);
    clReleaseProgram(h);
}

/* Program binary of p for the device (free it). */
static unsigned char *binary_of(cl_program p, size_t *len)
{
    cr_assert_eq(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof *len, len, NULL), 0);
    cr_assert_gt(*len, 0);
    unsigned char *bin = malloc(*len);
    cr_assert_eq(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL), 0);
    return bin;
}

static cl_program from_binary(const unsigned char *bin, size_t len)
{
    cl_int err, st = 99;
    cl_program p = clCreateProgramWithBinary(ctx, 1, &device, &len, &bin, &st, &err);
    cr_assert_eq(err, CL_SUCCESS);
    cr_assert_eq(st, CL_SUCCESS);
    return p;
}

/* A library (-create-library) linked into an executable; compiled objects and
 * libraries go through program binaries and link from there. */
Test(programs, library_linked_into_executable)
{
    cl_program b = compiled(unit_b, NULL);
    cl_program lib = linked(1, &b, "-create-library");
    cr_assert_eq(binary_type(lib), CL_PROGRAM_BINARY_TYPE_LIBRARY);
    cl_program lib2 = linked(1, &b, "-create-library -enable-link-options -cl-fast-relaxed-math");
    cr_assert_eq(binary_type(lib2), CL_PROGRAM_BINARY_TYPE_LIBRARY);
    clReleaseProgram(lib2);
    cl_program a = compiled(unit_a, NULL);
    cl_program in[2] = {a, lib};
    cl_program exe = linked(2, in, NULL);
    check_use_helper(exe);
    clReleaseProgram(exe);

    /* The binaries of an object and a library come back as such, and link. */
    size_t alen, llen;
    unsigned char *abin = binary_of(a, &alen), *lbin = binary_of(lib, &llen);
    cl_program a2 = from_binary(abin, alen), lib3 = from_binary(lbin, llen);
    cr_assert_eq(binary_type(a2), CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
    cr_assert_eq(binary_type(lib3), CL_PROGRAM_BINARY_TYPE_LIBRARY);
    /* A program from a binary has no source to compile. */
    cr_assert_eq(clCompileProgram(a2, 1, &device, NULL, 0, NULL, NULL, NULL, NULL),
                 CL_INVALID_OPERATION);
    cl_program in2[2] = {a2, lib3};
    exe = linked(2, in2, NULL);
    check_use_helper(exe);
    clReleaseProgram(exe);
    /* An object blob holds one file, program.bc (its path at byte 128 + 16); without
     * it the blob is refused, even correctly hashed. */
    cr_assert(!memcmp(abin + 144, "program.bc", 10));
    abin[144 + 7] = 'X';
    memset(abin + 104, 0, 16);
    XXH128_canonical_t canon;
    XXH128_canonicalFromHash(&canon, XXH3_128bits(abin, alen));
    memcpy(abin + 104, canon.digest, 16);
    cl_int err, st;
    const unsigned char *cbin = abin;
    cr_assert_null(clCreateProgramWithBinary(ctx, 1, &device, &alen, &cbin, &st, &err));
    cr_assert_eq(err, CL_INVALID_BINARY);
    /* A corrupted object binary is refused like any other. */
    abin[144 + 7] = '.';
    abin[alen / 2] ^= 1;
    cr_assert_null(clCreateProgramWithBinary(ctx, 1, &device, &alen, &cbin, &st, &err));
    cr_assert_eq(err, CL_INVALID_BINARY);
    free(abin);
    free(lbin);
    clReleaseProgram(a2);
    clReleaseProgram(lib3);
    clReleaseProgram(a);
    clReleaseProgram(lib);
    clReleaseProgram(b);
}

/* Linker and compiler options are checked; inputs must be compiled. */
Test(programs, link_errors)
{
    cl_program b = compiled(unit_b, NULL);
    cl_int err = 0;
    cr_assert_null(clLinkProgram(ctx, 1, &device, "-cl-no-such-option", 1, &b, NULL, NULL, &err));
    cr_assert_eq(err, CL_INVALID_LINKER_OPTIONS);
    err = 0;
    cr_assert_null(clLinkProgram(ctx, 1, &device, "-enable-link-options", 1, &b, NULL, NULL, &err));
    cr_assert_eq(err, CL_INVALID_LINKER_OPTIONS);
    err = 0;
    cr_assert_null(clLinkProgram(ctx, 1, &device, "-D X=1", 1, &b, NULL, NULL, &err));
    cr_assert_eq(err, CL_INVALID_LINKER_OPTIONS);
    err = 0;
    cr_assert_null(clLinkProgram(ctx, 1, &device, NULL, 0, &b, NULL, NULL, &err));
    cr_assert_eq(err, CL_INVALID_VALUE);
    err = 0;
    cr_assert_null(clLinkProgram(NULL, 1, &device, NULL, 1, &b, NULL, NULL, &err));
    cr_assert_eq(err, CL_INVALID_CONTEXT);
    /* An input never compiled. */
    cl_program src = from_source(unit_a);
    err = 0;
    cr_assert_null(clLinkProgram(ctx, 1, &device, NULL, 1, &src, NULL, NULL, &err));
    cr_assert_eq(err, CL_INVALID_OPERATION);
    /* Bad compiler options. */
    cr_assert_eq(clCompileProgram(src, 1, &device, "-cl-no-such-option", 0, NULL, NULL, NULL, NULL),
                 CL_INVALID_COMPILER_OPTIONS);
    char *log = build_log(src);
    cr_assert(strstr(log, "unknown build option '-cl-no-such-option'"), "log: %s", log);
    free(log);
    cr_assert_eq(clCompileProgram(NULL, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL),
                 CL_INVALID_PROGRAM);
    /* A compile error is clang's, in the log. */
    cl_program broken = from_source("int f(void) { return nope; }\n");
    cr_assert_eq(clCompileProgram(broken, 1, &device, NULL, 0, NULL, NULL, NULL, NULL),
                 CL_COMPILE_PROGRAM_FAILURE);
    log = build_log(broken);
    cr_assert(strstr(log, "<source>:1:22: error: use of undeclared identifier 'nope'"), "log: %s", log);
    free(log);
    clReleaseProgram(broken);
    clReleaseProgram(src);
    clReleaseProgram(b);
}

/* A kernel calling a function no input defines: the link fails with a log, and the
 * program is returned to read it. */
Test(programs, unresolved_function)
{
    cl_program a = compiled(unit_a, NULL);
    cl_int err = 0;
    cl_program exe = clLinkProgram(ctx, 1, &device, NULL, 1, &a, NULL, NULL, &err);
    cr_assert_eq(err, CL_LINK_PROGRAM_FAILURE);
    cr_assert_not_null(exe);
    cr_assert_eq(build_status(exe), CL_BUILD_ERROR);
    cr_assert_eq(binary_type(exe), CL_PROGRAM_BINARY_TYPE_NONE);
    char *log = build_log(exe);
    cr_assert(strstr(log, "error: undefined function 'helper': no input of the link defines it"),
              "log: %s", log);
    free(log);
    clReleaseProgram(exe);
    /* Defined twice is a link failure too. */
    cl_program b = compiled(unit_b, NULL);
    cl_program in[3] = {a, b, b};
    exe = clLinkProgram(ctx, 1, &device, NULL, 3, in, NULL, NULL, &err);
    cr_assert_eq(err, CL_LINK_PROGRAM_FAILURE);
    log = build_log(exe);
    cr_assert(strstr(log, "symbol multiply defined"), "log: %s", log);
    free(log);
    clReleaseProgram(exe);
    clReleaseProgram(b);
    clReleaseProgram(a);
}

/* A program with kernels is not compiled again. */
Test(programs, compile_with_kernels_attached)
{
    cl_program p = from_source("__kernel void one(__global int *a) { a[get_global_id(0)] = 1; }");
    cr_assert_eq(clBuildProgram(p, 1, &device, "", NULL, NULL), CL_SUCCESS);
    cl_int err;
    cl_kernel k = clCreateKernel(p, "one", &err);
    cr_assert_eq(err, CL_SUCCESS);
    cr_assert_eq(clCompileProgram(p, 1, &device, NULL, 0, NULL, NULL, NULL, NULL),
                 CL_INVALID_OPERATION);
    clReleaseKernel(k);
    /* Without kernels it is; the executable is gone. */
    cr_assert_eq(clCompileProgram(p, 1, &device, NULL, 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
    cr_assert_eq(binary_type(p), CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
    size_t nk;
    cr_assert_eq(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof nk, &nk, NULL),
                 CL_INVALID_PROGRAM_EXECUTABLE);
    clReleaseProgram(p);
}

/* ---- a host program that asks only for a GPU ---- */

/* CLHLS_DEVICE_TYPE=gpu (read when the platform is first used): the device is a GPU
 * (CL_DEVICE_TYPE), found by clGetDeviceIDs and clCreateContextFromType for GPUs and
 * no longer for accelerators, and a kernel runs on it. */
static void gpu_setup(void)
{
    setenv("CLHLS_DEVICE_TYPE", "gpu", 1);
    cr_assert_eq(clGetPlatformIDs(1, &platform, NULL), CL_SUCCESS);
    cl_uint n = 0;
    cr_assert_eq(clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &device, &n), CL_SUCCESS);
    cr_assert_eq(n, 1);
    cl_int err;
    ctx = clCreateContextFromType(NULL, CL_DEVICE_TYPE_GPU, NULL, NULL, &err);
    cr_assert_eq(err, CL_SUCCESS);
    queue = clCreateCommandQueue(ctx, device, 0, &err);
    cr_assert_eq(err, CL_SUCCESS);
}

TestSuite(gpu, .init = gpu_setup, .fini = teardown, .timeout = 900);

Test(gpu, device_type_gpu)
{
    cl_device_type t = 0;
    cr_assert_eq(clGetDeviceInfo(device, CL_DEVICE_TYPE, sizeof t, &t, NULL), CL_SUCCESS);
    cr_assert_eq(t, CL_DEVICE_TYPE_GPU);
    cl_device_id d;
    cl_uint n = 0;
    cr_assert_eq(clGetDeviceIDs(platform, CL_DEVICE_TYPE_DEFAULT, 1, &d, &n), CL_SUCCESS);
    cr_assert_eq(d, device);
    cr_assert_eq(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ACCELERATOR, 1, &d, &n),
                 CL_DEVICE_NOT_FOUND);
    cl_uint nd = 0;
    cr_assert_eq(clGetContextInfo(ctx, CL_CONTEXT_NUM_DEVICES, sizeof nd, &nd, NULL), 0);
    cr_assert_eq(nd, 1);
    cl_program p = from_source("__kernel void k(__global int *a) { a[0] = 1; }");
    cl_int rc = clBuildProgram(p, 0, NULL, "", NULL, NULL);
    if (rc != CL_SUCCESS)
        rt_test_build_failed(device, p, rc);
    int *out = run_kernel(p, "k", 1);
    cr_assert_eq(out[0], 1);
    free(out);
    clReleaseProgram(p);
}
