/* Builds a model library: Verilator translates the accelerator's Verilog to C++, g++
 * compiles it (all generated files as one translation unit, in parallel with
 * harness.cpp) and links it with Verilator's runtime into a shared library that
 * exports only clhls_harness_get. The runtime does not depend on the design: it is
 * compiled position-independent once per Verilator and compiler into a cache entry
 * under runtime_dir (libverilated_pic.a, with Verilator's DPI support, Verilator's
 * headers precompiled for every unit of every model, and its manifest, checked before
 * each use, built in a temporary directory and renamed into place, so concurrent
 * builds are safe). Tools run with argument vectors (no shell, common/proc.h), in the
 * process group of the build's tools, which ends with this process
 * (common/toolgroup.h); everything they print goes to the build log. At most two
 * compilers run at once. The traced variant (SIM_BUILD_WAVES: Verilator's --trace-fst,
 * every unit and the harness compiled with VM_TRACE) also compiles Verilator's FST
 * writer, which the shared runtime leaves out, and links zlib. The multi-threaded variant
 * (SIM_BUILD_THREADS(n)) is verilated with --threads n and its harness compiled with
 * CLHLS_MODEL_THREADS=n; every other step is the normal model's. */
#define _XOPEN_SOURCE 700 /* nftw */
#include "sim_internal.h"

#include <xxhash.h>

#include "fsutil.h"
#include "manifest.h"
#include "proc.h"
#include "strbuf.h"

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef CLHLS_VERILATOR_PATH
#define CLHLS_VERILATOR_PATH "verilator"
#endif
#ifndef CLHLS_HARNESS_SOURCE
#define CLHLS_HARNESS_SOURCE "sim-bridge/harness.cpp"
#endif
#ifndef CLHLS_HARNESS_INSTALLED
#define CLHLS_HARNESS_INSTALLED "/usr/local/share/clhls/sim-bridge/harness.cpp"
#endif

#define RUNTIME_LIB "libverilated_pic.a"
#define MAX_ARGS 64

/* Appends a file's contents to the log. */
static void append_file(strbuf *b, const char *path)
{
    size_t n;
    char *text = hls_read_file(path, 0, &n);
    if (text)
        sb_appendn(b, text, n);
    free(text);
}

/* Logs a command line: "$ argv...". */
static void log_command(strbuf *log, char *const argv[])
{
    sb_append(log, "$");
    for (int i = 0; argv[i]; i++)
        sb_printf(log, " %s", argv[i]);
    sb_append(log, "\n");
}

/* A tool started with its output going to a file. */
typedef struct job {
    proc p;               /* the process (common/proc.h) */
    char out[4096];       /* file receiving stdout and stderr */
} job;

/* Starts argv (NULL-terminated) with stdout+stderr to j->out, in the group of the
 * build's tools (common/toolgroup.h), so that it ends with this process; logs the
 * command. */
static int job_start(job *j, char *const argv[], const char *out_path, strbuf *log)
{
    log_command(log, argv);
    snprintf(j->out, sizeof j->out, "%s", out_path);
    proc_opts o = {.output = out_path, .group = PROC_GROUP_TOOLS};
    if (proc_start(&j->p, (const char *const *)argv, &o)) {
        sb_printf(log, "clhls: cannot run %s: %s\n", argv[0], strerror(errno));
        return -1;
    }
    return 0;
}

/* Appends a finished job's output to the log; 0 when it succeeded (ok: it could be
 * waited for). */
static int job_finish(job *j, int ok, strbuf *log)
{
    append_file(log, j->out);
    unlink(j->out);
    if (ok && proc_succeeded(&j->p))
        return 0;
    if (ok && !j->p.exited && !j->p.lost)
        sb_printf(log, "clhls: tool killed by signal %d\n", j->p.code);
    else
        sb_printf(log, "clhls: tool failed (exit status %d)\n",
                  ok && j->p.exited ? j->p.code : -1);
    return -1;
}

/* Runs one tool to completion. */
static int run(char *const argv[], const char *out_path, strbuf *log)
{
    job j;
    if (job_start(&j, argv, out_path, log))
        return -1;
    return job_finish(&j, proc_wait(&j.p) == 0, log);
}

/* Runs n tools, at most MAX_JOBS at once (the machine's two cores); every started one
 * is waited for. 0 when all succeeded. Only our own children are waited for (polled),
 * so a host process's other children are left alone. */
#define MAX_JOBS 2
static int run_all(char **const argvs[], char *const outs[], int n, strbuf *log)
{
    job jobs[MAX_JOBS];
    int running = 0, next = 0, rc = 0;
    while (running || (next < n && !rc)) {
        for (; next < n && running < MAX_JOBS && !rc; next++)
            if (job_start(&jobs[running], argvs[next], outs[next], log))
                rc = -1;
            else
                running++;
        int finished = 0;
        for (int k = 0; k < running; k++) {
            int done = proc_done(&jobs[k].p);
            if (done == 0)
                continue;
            if (job_finish(&jobs[k], done > 0, log))
                rc = -1;
            jobs[k--] = jobs[--running];
            finished = 1;
        }
        if (!finished && running)
            nanosleep(&(struct timespec){.tv_nsec = 10 * 1000 * 1000}, NULL);
    }
    return rc;
}

static int file_exists(const char *path) { return access(path, R_OK) == 0; }

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Verilator's installation root (verilator --getenv VERILATOR_ROOT). */
static int verilator_root(const char *verilator, char *root, size_t len, strbuf *log)
{
    char *argv[] = {(char *)verilator, "--getenv", "VERILATOR_ROOT", NULL};
    strbuf out = {.lossy = 1};
    proc p;
    log_command(log, argv);
    int rc = proc_run(&p, (const char *const *)argv,
                      &(proc_opts){.capture = &out, .group = PROC_GROUP_TOOLS});
    if (rc && !p.pid)
        sb_printf(log, "clhls: cannot run %s: %s\n", verilator, strerror(errno));
    snprintf(root, len, "%s", !rc && out.data ? out.data : "");
    sb_free(&out);
    root[strcspn(root, "\r\n")] = '\0';
    if (rc || !proc_succeeded(&p) || !root[0]) {
        sb_printf(log, "clhls: cannot find Verilator's root directory with %s --getenv VERILATOR_ROOT\n",
                  verilator);
        return -1;
    }
    return 0;
}

/* How the generated C++ is compiled. Verilator marks code that runs once (constructors,
 * initial blocks, the first settle) as "Slow": about half of every model, compiled at
 * -O0 in a unit of its own. The rest, the per-cycle code, is cut into units of about
 * UNIT_BYTES, compiled side by side with the harness and the slow unit, two at a time.
 * Per-cycle code beyond O2_MAX_BYTES is compiled at -O1: g++ -O2 on 4 MB of it takes
 * 45 s against 13 s at -O1, for a simulation about 1.3 times faster. */
#define UNIT_BYTES (640u << 10)
#define MAX_UNITS 16
#define O2_MAX_BYTES (1536u << 10)

/* Flags for compiling Verilator output and runtime (from verilated.mk), plus -fPIC,
 * after the optimisation level `opt`; waves: the traced variant's (VM_TRACE). */
static int cxx_flags_of(char **argv, int n, const char *opt, const char *inc,
                        const char *inc_std, int waves)
{
    argv[n++] = (char *)opt;
    static const char *const flags[] = {
        "-fPIC", "-std=gnu++17", "-faligned-new", "-fcf-protection=none",
        "-fvisibility=hidden", "-fvisibility-inlines-hidden", "-fno-gnu-unique",
        "-Wno-bool-operation", "-Wno-sign-compare", "-Wno-uninitialized",
        "-Wno-unused-but-set-variable", "-Wno-unused-parameter", "-Wno-unused-variable",
        "-Wno-shadow", "-DVM_COVERAGE=0", "-DVM_SC=0", "-DVM_TRACE_VCD=0",
    };
    for (size_t i = 0; i < sizeof flags / sizeof *flags; i++)
        argv[n++] = (char *)flags[i];
    argv[n++] = waves ? "-DVM_TRACE=1" : "-DVM_TRACE=0";
    argv[n++] = waves ? "-DVM_TRACE_FST=1" : "-DVM_TRACE_FST=0";
    argv[n++] = (char *)inc;
    argv[n++] = (char *)inc_std;
    return n;
}

/* The same for the normal model and Verilator's runtime. */
static int cxx_flags(char **argv, int n, const char *opt, const char *inc, const char *inc_std)
{
    return cxx_flags_of(argv, n, opt, inc, inc_std, 0);
}

/* Tells the caller that a step begins. */
static void step_begins(void (*progress)(void *, const char *), void *ctx, const char *step)
{
    if (progress)
        progress(ctx, step);
}

/* The sources of Verilator's runtime in the archive (verilated_dpi: the harness asks a
 * load-store unit's DPI scope). */
static const char *const runtime_sources[] = {"verilated", "verilated_threads", "verilated_dpi"};
#define RUNTIME_SOURCES (sizeof runtime_sources / sizeof *runtime_sources)

/* Verilator's headers, precompiled into the runtime's entry (pch/PCH_HEADER and
 * pch/PCH_HEADER.gch/, one header per optimisation level): every compilation unit of a
 * model and the harness is compiled with `-include PCH_HEADER`. Parsing them took
 * about 1.2 s of every unit (vadd's whole per-cycle unit: 1.8 s, 0.8 s with them
 * precompiled). g++ takes the first header of the directory that fits the unit's
 * options (the -O2 one serves -O1 too: only __OPTIMIZE__ tells them apart), and the
 * text of the header when none does, so a header that does not fit costs time only. */
#define PCH_HEADER "clhls_verilated.h"
static const char pch_text[] = "// Verilator's headers, precompiled by clhls for every model.\n"
                               "#include \"verilated.h\"\n"
                               "#include \"verilated_dpi.h\"\n";
static const char *const pch_levels[] = {"-O0", "-O2"};
#define PCH_LEVELS (sizeof pch_levels / sizeof *pch_levels)

/* The runtime's cache entry: runtime_dir/<XXH3-64 of Verilator's version header, the
 * compiler's name, the runtime's sources and the precompiled header>, so another
 * Verilator, compiler or set of sources gets a runtime of its own. */
static int runtime_entry(const char *runtime_dir, const char *root, const char *cxx,
                         char *entry, size_t len, strbuf *log)
{
    char config[4200];
    snprintf(config, sizeof config, "%s/include/verilated_config.h", root);
    errno = 0;
    char *version = hls_read_text(config);
    if (!version) {
        sb_printf(log, "clhls: cannot read %s: %s\n", config, strerror(errno));
        return errno == ENOMEM ? SIM_ERR_NOMEM : -1;
    }
    XXH64_hash_t key =
        XXH3_64bits_withSeed(cxx, strlen(cxx), XXH3_64bits(version, strlen(version)));
    for (size_t k = 0; k < RUNTIME_SOURCES; k++)
        key = XXH3_64bits_withSeed(runtime_sources[k], strlen(runtime_sources[k]), key);
    key = XXH3_64bits_withSeed(pch_text, sizeof pch_text - 1, key);
    for (size_t k = 0; k < PCH_LEVELS; k++)
        key = XXH3_64bits_withSeed(pch_levels[k], strlen(pch_levels[k]), key);
    free(version);
    snprintf(entry, len, "%s/%016llx", runtime_dir, (unsigned long long)key);
    return 0;
}

/* Compiles Verilator's runtime once into a cache entry (runtime_entry) holding
 * libverilated_pic.a, the precompiled headers (pch/) and its manifest, checked before
 * every use: a damaged entry is removed and compiled again (the reason in damaged), so
 * a truncated archive or header never breaks the build of every model. Built in a
 * scratch directory and put in place as a whole, so concurrent builds are safe. lib
 * gets the archive's path, pch_dir the headers' directory. */
static int ensure_runtime(const char *runtime_dir, const char *root, const char *cxx,
                          char *lib, size_t liblen, char *pch_dir, size_t pch_len,
                          char *damaged, size_t damaged_len,
                          void (*progress)(void *, const char *), void *ctx, strbuf *log)
{
    char entry[4096], why[512];
    int rc = runtime_entry(runtime_dir, root, cxx, entry, sizeof entry, log);
    if (rc)
        return rc;
    if (hls_path_join(lib, liblen, entry, RUNTIME_LIB) ||
        hls_path_join(pch_dir, pch_len, entry, "pch")) {
        sb_printf(log, "clhls: path too long: %s\n", entry);
        return -1;
    }
    int usable = hls_entry_usable(entry, RUNTIME_LIB, damaged, damaged_len);
    if (usable < 0) {
        sb_printf(log, "clhls: cannot check Verilator's runtime %s: %s\n", entry, damaged);
        return -1;
    }
    if (usable)
        return 0;
    step_begins(progress, ctx, "Verilator runtime (once)");
    if (hls_mkdir_p(runtime_dir)) {
        sb_printf(log, "clhls: cannot create %s: %s\n", runtime_dir, strerror(errno));
        return -1;
    }
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s/tmp.XXXXXX", runtime_dir);
    if (!mkdtemp(tmp)) {
        sb_printf(log, "clhls: cannot create a directory in %s: %s\n", runtime_dir,
                  strerror(errno));
        return -1;
    }
    /* jobs 0..N-1 compile the runtime's sources, N.. the headers at each level */
    enum { N = RUNTIME_SOURCES, JOBS = RUNTIME_SOURCES + PCH_LEVELS };
    char inc[4200], inc_std[4200], src[JOBS][4200], obj[JOBS][4400], out[JOBS + 1][4200],
        tmplib[4200], header[4200], gch_dir[4300];
    snprintf(inc, sizeof inc, "-I%s/include", root);
    snprintf(inc_std, sizeof inc_std, "-I%s/include/vltstd", root);
    snprintf(header, sizeof header, "%s/pch/%s", tmp, PCH_HEADER);
    snprintf(gch_dir, sizeof gch_dir, "%s.gch", header);
    if (hls_mkdir_p(gch_dir) || hls_write_text(header, pch_text, 0)) {
        sb_printf(log, "clhls: cannot write %s: %s\n", header, strerror(errno));
        hls_remove_tree(tmp);
        return -1;
    }
    char *argv[JOBS][MAX_ARGS], **argvs[JOBS], *outs[JOBS];
    for (int k = 0; k < JOBS; k++) {
        const char *level = k < N ? "-O2" : pch_levels[k - N];
        if (k < N) {
            snprintf(src[k], sizeof src[k], "%s/include/%s.cpp", root, runtime_sources[k]);
            snprintf(obj[k], sizeof obj[k], "%s/%s.o", tmp, runtime_sources[k]);
        } else {
            snprintf(src[k], sizeof src[k], "%s", header);
            snprintf(obj[k], sizeof obj[k], "%s/%s.gch", gch_dir, level + 1);
        }
        snprintf(out[k], sizeof out[k], "%s/job%d.log", tmp, k);
        argvs[k] = argv[k];
        outs[k] = out[k];
        int n = 0;
        argv[k][n++] = (char *)cxx;
        n = cxx_flags(argv[k], n, level, inc, inc_std);
        if (k >= N) {
            argv[k][n++] = "-x";
            argv[k][n++] = "c++-header";
        } else
            argv[k][n++] = "-c";
        argv[k][n++] = src[k];
        argv[k][n++] = "-o";
        argv[k][n++] = obj[k];
        argv[k][n] = NULL;
    }
    snprintf(out[JOBS], sizeof out[JOBS], "%s/ar.log", tmp);
    snprintf(tmplib, sizeof tmplib, "%s/%s", tmp, RUNTIME_LIB);
    char *ar[] = {"ar", "rcs", tmplib, obj[0], obj[1], obj[2], NULL};
    _Static_assert(N == 3, "the archive's members");
    rc = run_all(argvs, outs, JOBS, log);
    if (!rc)
        rc = run(ar, out[JOBS], log);
    /* The entry is the archive, the headers and its manifest only. */
    for (int k = 0; k < N; k++)
        unlink(obj[k]);
    for (int k = 0; k < JOBS + 1; k++)
        unlink(out[k]);
    if (!rc && hls_manifest_write(tmp)) {
        sb_printf(log, "clhls: cannot write the manifest of %s: %s\n", tmp, strerror(errno));
        rc = -1;
    }
    if (!rc && hls_entry_publish(tmp, entry, RUNTIME_LIB, why, sizeof why)) {
        sb_printf(log, "clhls: %s\n", why);
        return -1;
    }
    if (rc)
        hls_remove_tree(tmp);
    return rc;
}

/* Adds Verilator's precompiled headers to a compiler's arguments: pch_inc is -I and
 * ensure_runtime's pch_dir. They must come before any other -include. */
static int use_pch(char **argv, int n, const char *pch_inc)
{
    argv[n++] = (char *)pch_inc;
    argv[n++] = "-include";
    argv[n++] = PCH_HEADER;
    return n;
}

/* A generated .cpp file and its size. */
typedef struct cpp_file {
    char *name;    /* file name in the object directory */
    size_t bytes;  /* its size */
    int slow;      /* Verilator's "Slow" code, run once */
} cpp_file;

/* The header write_units makes of Verilator's DPI import wrappers (in obj_dir). */
#define DPI_WRAPPERS_HEADER "clhls_dpi_wrappers.h"

/* Whether a line of generated C++ opens a DPI import wrapper's definition (Verilator
 * writes `VL_INLINE_OPT void <root>____Vdpiimwrap_<scope>_TOP(...) {` on one line and
 * closes every function with a `}` alone on a line). */
static int opens_dpi_wrapper(const char *line)
{
    return !strncmp(line, "VL_INLINE_OPT void ", 19) && strstr(line, "____Vdpiimwrap_") &&
           strstr(line, ") {");
}

/* Moves the DPI import wrappers out of generated file `path` into `header` as inline
 * functions (after the file's includes and declarations), leaving the file its other
 * functions. Every compilation unit then opens with the header, and g++ inlines an
 * operator model's wrapper into its callers (always: left to its heuristics it did or
 * not as the units happened to be cut), where it was a call into another unit on every
 * cycle of every operator. 1: the file had wrappers, 0: none, -1: an error. */
static int split_dpi_wrappers(const char *path, const char *header)
{
    char rest[4500];
    if (snprintf(rest, sizeof rest, "%s.rest", path) >= (int)sizeof rest)
        return -1;
    FILE *in = fopen(path, "r"), *h = fopen(header, "w"), *c = fopen(rest, "w");
    int found = 0, rc = in && h && c ? 0 : -1;
    FILE *body = NULL; /* inside a function: where its lines go (its first one says) */
    char *line = NULL;
    size_t cap = 0;
    if (!rc && fprintf(h, "// Generated by clhls: Verilator's DPI import wrappers, inline.\n"
                          "#ifndef CLHLS_DPI_WRAPPERS_H\n#define CLHLS_DPI_WRAPPERS_H\n") < 0)
        rc = -1;
    ssize_t len;
    while (!rc && (len = getline(&line, &cap, in)) > 0) {
        int w;
        if (body) { /* a function's body, to its closing brace alone on a line */
            w = fputs(line, body);
            if (!strcmp(line, "}\n"))
                body = NULL;
        } else if (opens_dpi_wrapper(line)) {
            found = 1;
            body = h;
            w = fprintf(h, "inline __attribute__((always_inline)) %s",
                        line + strlen("VL_INLINE_OPT "));
        } else if (line[0] != ' ' && len >= 2 && !strcmp(line + len - 2, "{\n")) {
            body = c; /* another function */
            w = fputs(line, c);
        } else { /* includes and declarations: both files need them */
            w = fputs(line, c);
            if (w >= 0)
                w = fputs(line, h);
        }
        if (w < 0)
            rc = -1;
    }
    free(line);
    if (!rc && (ferror(in) || fputs("#endif\n", h) < 0))
        rc = -1;
    if (in)
        fclose(in);
    if (h && fclose(h))
        rc = -1;
    if (c && fclose(c))
        rc = -1;
    if (!rc && found && rename(rest, path))
        rc = -1;
    if (rc || !found) {
        remove(rest);
        remove(header);
    }
    return rc ? -1 : found;
}

/* Largest first; ties by name, so units are the same from build to build. */
static int by_size(const void *a, const void *b)
{
    const cpp_file *x = a, *y = b;
    if (x->bytes != y->bytes)
        return x->bytes < y->bytes ? 1 : -1;
    return strcmp(x->name, y->name);
}

/* The compilation units of a model (see UNIT_BYTES). */
typedef struct units {
    unsigned n;                       /* units written: the slow one, then the fast ones */
    char path[MAX_UNITS + 1][4200];   /* unit k is work_dir/model_<k>.cpp */
    size_t fast_bytes, slow_bytes;    /* per-cycle and once-only C++ */
    unsigned files;                   /* generated .cpp files */
} units;

/* Lists the generated .cpp files of obj_dir and writes the units, each a list of
 * #includes: unit 0 the slow code, units 1.. the per-cycle code, the biggest files
 * spread first over the least filled unit. */
static int write_units(const char *obj_dir, const char *work_dir, units *u, strbuf *log)
{
    memset(u, 0, sizeof *u);
    DIR *d = opendir(obj_dir);
    if (!d) {
        sb_printf(log, "clhls: cannot open %s: %s\n", obj_dir, strerror(errno));
        return -1;
    }
    cpp_file *files = NULL;
    size_t n = 0, cap = 0;
    int rc = 0;
    struct dirent *e;
    while ((e = readdir(d)) && !rc) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".cpp") ||
            strncmp(e->d_name, "Vclhls_top", 10))
            continue;
        char path[4400];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", obj_dir, e->d_name);
        if (n == cap) {
            cap = cap ? 2 * cap : 32;
            cpp_file *p = hls_try_realloc(files, cap * sizeof *p);
            if (!p) {
                rc = -1;
                break;
            }
            files = p;
        }
        files[n].name = hls_try_strdup(e->d_name);
        files[n].bytes = stat(path, &st) ? 0 : (size_t)st.st_size;
        files[n].slow = strstr(e->d_name, "__Slow") != NULL;
        if (!files[n].name)
            rc = -1;
        else
            n++;
    }
    closedir(d);
    if (!rc && n == 0) {
        sb_printf(log, "clhls: Verilator generated no C++ in %s\n", obj_dir);
        rc = -1;
    }
    if (!rc) {
        qsort(files, n, sizeof *files, by_size);
        for (size_t i = 0; i < n; i++)
            *(files[i].slow ? &u->slow_bytes : &u->fast_bytes) += files[i].bytes;
        u->files = (unsigned)n;
        size_t fast = (u->fast_bytes + UNIT_BYTES - 1) / UNIT_BYTES;
        u->n = 1 + (unsigned)(fast < 1 ? 1 : fast > MAX_UNITS ? MAX_UNITS : fast);
    }
    int wrappers = 0; /* a file's DPI wrappers went into DPI_WRAPPERS_HEADER */
    char header[4300];
    snprintf(header, sizeof header, "%s/%s", obj_dir, DPI_WRAPPERS_HEADER);
    for (size_t i = 0; !rc && !wrappers && i < n; i++) {
        char path[4400];
        snprintf(path, sizeof path, "%s/%s", obj_dir, files[i].name);
        if (!files[i].slow && (wrappers = split_dpi_wrappers(path, header)) < 0) {
            sb_printf(log, "clhls: cannot move the DPI wrappers of %s\n", path);
            rc = -1;
        }
    }
    FILE *out[MAX_UNITS + 1] = {NULL};
    size_t filled[MAX_UNITS + 1] = {0};
    for (unsigned k = 0; !rc && k < u->n; k++) {
        snprintf(u->path[k], sizeof u->path[k], "%s/model_%u.cpp", work_dir, k);
        if (!(out[k] = fopen(u->path[k], "w")) ||
            fprintf(out[k], "// Generated by clhls: %s code Verilator generated.\n",
                    k ? "per-cycle" : "once-only") < 0) {
            sb_printf(log, "clhls: cannot write %s\n", u->path[k]);
            rc = -1;
        }
        if (!rc && wrappers > 0 && fprintf(out[k], "#include \"%s\"\n", header) < 0)
            rc = -1;
    }
    for (size_t i = 0; !rc && i < n; i++) {
        unsigned k = 0;
        if (!files[i].slow) {
            k = 1;
            for (unsigned j = 2; j < u->n; j++)
                if (filled[j] < filled[k])
                    k = j;
        }
        filled[k] += files[i].bytes;
        if (fprintf(out[k], "#include \"%s/%s\"\n", obj_dir, files[i].name) < 0)
            rc = -1;
    }
    for (unsigned k = 0; k < u->n; k++)
        if (out[k] && fclose(out[k]))
            rc = -1;
    for (size_t i = 0; i < n; i++)
        free(files[i].name);
    free(files);
    return rc;
}

const char *sim_harness_source(void)
{
    const char *env = getenv("CLHLS_HARNESS_CPP");
    if (env && file_exists(env))
        return env;
    if (file_exists(CLHLS_HARNESS_SOURCE))
        return CLHLS_HARNESS_SOURCE;
    if (file_exists(CLHLS_HARNESS_INSTALLED))
        return CLHLS_HARNESS_INSTALLED;
    return NULL;
}

int sim_harness_file(size_t i, char *path, size_t size)
{
    static const char *const beside[] = {"clhls_harness_abi.h", "fp_model.c", "fp_model.h",
                                         "fp_model_inline.h"};
    const char *harness = sim_harness_source();
    if (!harness || i > sizeof beside / sizeof *beside)
        return -1;
    const char *slash = strrchr(harness, '/');
    if (i == 0)
        snprintf(path, size, "%s", harness);
    else if (slash)
        snprintf(path, size, "%.*s/%s", (int)(slash - harness), harness, beside[i - 1]);
    else
        snprintf(path, size, "./%s", beside[i - 1]);
    return 0;
}

int sim_build_model(const char *const *verilog_files, size_t nfiles, const char *top,
                    const char *work_dir, const char *runtime_dir, const char *out_so,
                    unsigned flags, char **log_out, sim_build_stats *stats)
{
    return sim_build_model_progress(verilog_files, nfiles, top, work_dir, runtime_dir, out_so,
                                    flags, NULL, NULL, log_out, stats);
}

/* What the steps of one model build share: the request, the tools, and what each step
 * leaves for the next. */
typedef struct model_build {
    const char *const *verilog_files; /* the design */
    size_t nfiles;                    /* how many */
    const char *top;                  /* its top module */
    const char *work_dir;             /* scratch directory of the build */
    const char *runtime_dir;          /* Verilator's compiled runtime, shared */
    const char *out_so;               /* the model library */
    unsigned flags;                   /* SIM_BUILD_* */
    void (*progress)(void *ctx, const char *step); /* told as each step begins, or NULL */
    void *ctx;                        /* its argument */
    strbuf *log;                      /* the tools' output and our messages */
    sim_build_stats *stats;           /* what the build took, or NULL */
    const char *verilator, *cxx;      /* the tools */
    const char *harness;              /* harness.cpp (sim_harness_source) */
    char root[4096];                  /* Verilator's root */
    char obj_dir[4200];               /* Verilator's C++ */
    char rtlib[4200], pch_dir[4200];  /* the runtime's archive and precompiled headers */
    units u;                          /* the generated C++ as compile units */
    char h_o[4200], m_o[4200];        /* the harness's and the operator models' objects */
    char fst_src[4300], fst_o[4200];  /* the traced variant's: Verilator's FST writer */
    char obj[MAX_UNITS + 1][4200];    /* unit k's object */
    char threads_define[40];          /* the threaded variant's -DCLHLS_MODEL_THREADS=n */
} model_build;

/* The tools found, the work directory made, Verilator's root asked for. */
static int find_tools(model_build *b)
{
    b->verilator = getenv("CLHLS_VERILATOR");
    if (!b->verilator || !*b->verilator)
        b->verilator = CLHLS_VERILATOR_PATH;
    b->cxx = getenv("CLHLS_CXX");
    if (!b->cxx || !*b->cxx)
        b->cxx = "g++";
    b->harness = sim_harness_source();
    if (!b->harness) {
        sb_printf(b->log, "clhls: harness.cpp not found (looked in %s and %s)\n",
                  CLHLS_HARNESS_SOURCE, CLHLS_HARNESS_INSTALLED);
        return SIM_ERR_BUILD;
    }
    if (hls_mkdir_p(b->work_dir)) {
        sb_printf(b->log, "clhls: cannot create %s: %s\n", b->work_dir, strerror(errno));
        return SIM_ERR_BUILD;
    }
    step_begins(b->progress, b->ctx, "Verilator");
    if (verilator_root(b->verilator, b->root, sizeof b->root, b->log))
        return SIM_ERR_BUILD;
    return SIM_OK;
}

/* Adds -IDIR for the directory of every Verilog file (`include files are looked up
 * beside the files given), each once, to argv at *n; incdirs keeps the strings to free.
 * 0, or SIM_ERR_NOMEM. */
static int include_dirs(const model_build *b, char **argv, size_t *n, char **incdirs,
                        size_t *ninc)
{
    for (size_t i = 0; i < b->nfiles; i++) {
        const char *file = b->verilog_files[i];
        const char *slash = strrchr(file, '/');
        int len = slash ? (int)(slash - file) : 1;
        char *dir = hls_try_alloc((size_t)len + 3);
        if (!dir)
            return SIM_ERR_NOMEM;
        snprintf(dir, (size_t)len + 3, "-I%.*s", len, slash ? file : ".");
        for (size_t j = 0; dir && j < *ninc; j++)
            if (!strcmp(incdirs[j], dir)) {
                free(dir);
                dir = NULL;
            }
        if (dir)
            argv[(*n)++] = incdirs[(*ninc)++] = dir;
    }
    return 0;
}

/* The thread count of a build's flags when it asks for the multi-threaded variant,
 * else 0. */
static unsigned build_threads(const model_build *b)
{
    unsigned n = SIM_BUILD_THREADS_OF(b->flags);
    return n >= 2 && n <= SIM_MAX_THREADS ? n : 0;
}

/* 1. Verilog -> C++, into obj_dir. */
static int verilate(model_build *b)
{
    char vlog[4200], topopt[512], threads[16];
    snprintf(b->obj_dir, sizeof b->obj_dir, "%s/obj", b->work_dir);
    snprintf(vlog, sizeof vlog, "%s/verilator.log", b->work_dir);
    hls_remove_tree(b->obj_dir);
    size_t max = 24 + 2 * b->nfiles + 1;
    char **argv = hls_try_alloc(max * sizeof *argv);
    if (!argv)
        return SIM_ERR_NOMEM;
    snprintf(topopt, sizeof topopt, "%s", b->top);
    size_t n = 0;
    argv[n++] = (char *)b->verilator;
    argv[n++] = "--cc";
    argv[n++] = "-O3";
    argv[n++] = "--x-assign";
    argv[n++] = "fast";
    argv[n++] = "--x-initial";
    argv[n++] = "fast";
    argv[n++] = "--noassert";
    argv[n++] = "-Wno-fatal";
    /* Functions of at most about 500 statements in files of about 5000: g++'s time
     * grows faster than a function's size (a kernel of 256 floating-point
     * operations: 10.4 s at -O2 as one function, 6.5 s split), and files can be
     * spread over units compiled side by side. */
    argv[n++] = "--output-split";
    argv[n++] = "5000";
    argv[n++] = "--output-split-cfuncs";
    argv[n++] = "500";
    if (!(b->flags & SIM_BUILD_RTL_OPERATORS))
        argv[n++] = "+define+CLHLS_SIM_MODELS";
    argv[n++] = "+define+CLHLS_SIM_CHECKS"; /* the access checker (harness.cpp) */
    if (b->flags & SIM_BUILD_WAVES)
        argv[n++] = "--trace-fst"; /* every signal, every level */
    if (build_threads(b)) {
        /* non-pure DPI imports stay serialized (Verilator's --threads-dpi pure) */
        snprintf(threads, sizeof threads, "%u", build_threads(b));
        argv[n++] = "--threads";
        argv[n++] = threads;
    }
    argv[n++] = "--prefix";
    argv[n++] = "Vclhls_top";
    argv[n++] = "--top-module";
    argv[n++] = topopt;
    argv[n++] = "-Mdir";
    argv[n++] = b->obj_dir;
    char **incdirs = hls_try_alloc(b->nfiles * sizeof *incdirs);
    size_t ninc = 0;
    int r = incdirs ? include_dirs(b, argv, &n, incdirs, &ninc) : SIM_ERR_NOMEM;
    for (size_t i = 0; i < b->nfiles; i++)
        argv[n++] = (char *)b->verilog_files[i];
    argv[n] = NULL;
    double t = now_seconds();
    if (!r)
        r = run(argv, vlog, b->log);
    if (b->stats)
        b->stats->verilator_seconds = now_seconds() - t;
    for (size_t i = 0; i < ninc; i++)
        free(incdirs[i]);
    free(incdirs);
    free(argv);
    if (r == SIM_ERR_NOMEM) {
        sb_printf(b->log, "clhls: out of memory\n");
        return SIM_ERR_NOMEM;
    }
    if (r) {
        sb_printf(b->log, "clhls: Verilator failed on top module %s\n", b->top);
        return SIM_ERR_BUILD;
    }
    return SIM_OK;
}

/* 1b. The clocks' edge records of the verilated model, for the harness (which lowers
 * the clocks without an evaluation and must lower their records with them): the root's
 * members named __Vtrigrprev__TOP__...clk... (Verilator 5's), written to
 * clhls_clock_records.h as CLHLS_CLOCK_RECORDS(X) X(member) ...; none when the model
 * keeps no such record (another Verilator: the harness then evaluates the low phase). */
static int clock_records(model_build *b)
{
    char path[4300];
    snprintf(path, sizeof path, "%s/Vclhls_top___024root.h", b->obj_dir);
    size_t n;
    char *root = hls_read_file(path, 0, &n);
    strbuf h = {0};
    sb_append(&h, "/* The clocks' edge records of the verilated top (sim-bridge/build.c). */\n"
                  "#define CLHLS_CLOCK_RECORDS(X)");
    static const char prefix[] = "__Vtrigrprev__TOP__";
    for (const char *at = root; at && (at = strstr(at, prefix)); ) {
        size_t len = strspn(at, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
        char name[512];
        snprintf(name, sizeof name, "%.*s", (int)(len - (sizeof prefix - 1)),
                 at + sizeof prefix - 1);
        size_t name_len = strlen(name);
        int clock = (name_len >= 3 && !strcmp(name + name_len - 3, "clk")) ||
                    strstr(name, "__DOT__clk_");
        if (clock && at[len] == ';') /* the declaration */
            sb_printf(&h, " X(%.*s)", (int)len, at);
        at += len;
    }
    sb_append(&h, "\n");
    free(root);
    snprintf(path, sizeof path, "%s/clhls_clock_records.h", b->obj_dir);
    FILE *f = fopen(path, "w");
    int ok = f && fwrite(h.data, 1, h.len, f) == h.len;
    if (f && fclose(f))
        ok = 0;
    sb_free(&h);
    if (!ok) {
        sb_printf(b->log, "clhls: cannot write %s: %s\n", path, strerror(errno));
        return SIM_ERR_BUILD;
    }
    return SIM_OK;
}

/* 2. Verilator's runtime, compiled once per Verilator and compiler. */
static int runtime(model_build *b)
{
    char damaged[256] = "";
    int rt = ensure_runtime(b->runtime_dir, b->root, b->cxx, b->rtlib, sizeof b->rtlib,
                            b->pch_dir, sizeof b->pch_dir, damaged, sizeof damaged,
                            b->progress, b->ctx, b->log);
    if (b->stats)
        snprintf(b->stats->runtime_damaged, sizeof b->stats->runtime_damaged, "%s", damaged);
    if (rt)
        return rt == SIM_ERR_NOMEM ? SIM_ERR_NOMEM : SIM_ERR_BUILD;
    return SIM_OK;
}

/* The include options of a compile of the model's C++. */
typedef struct cxx_includes {
    char inc[4200], inc_std[4200]; /* Verilator's headers */
    char inc_obj[4300];            /* the generated C++ */
    char inc_abi[4200];            /* the harness's interface */
    char inc_pch[4300];            /* the precompiled headers */
    char m_src[4200], m_inline[4200]; /* the operator models, out of line and inline */
} cxx_includes;

static void cxx_includes_of(const model_build *b, cxx_includes *c)
{
    snprintf(c->inc, sizeof c->inc, "-I%s/include", b->root);
    snprintf(c->inc_std, sizeof c->inc_std, "-I%s/include/vltstd", b->root);
    snprintf(c->inc_obj, sizeof c->inc_obj, "-I%s", b->obj_dir);
    snprintf(c->inc_pch, sizeof c->inc_pch, "-I%s", b->pch_dir);
    const char *slash = strrchr(b->harness, '/');
    int dlen = slash ? (int)(slash - b->harness) : 1;
    const char *dir = slash ? b->harness : ".";
    snprintf(c->inc_abi, sizeof c->inc_abi, "-I%.*s", dlen, dir);
    snprintf(c->m_src, sizeof c->m_src, "%.*s/fp_model.c", dlen, dir);
    snprintf(c->m_inline, sizeof c->m_inline, "%.*s/fp_model_inline.h", dlen, dir);
}

/* The compile jobs of the model, two at a time. */
typedef struct compile_jobs {
    char *argv[MAX_UNITS + 4][MAX_ARGS], out[MAX_UNITS + 4][4200];
    char **argvs[MAX_UNITS + 4], *outs[MAX_UNITS + 4];
    int n;
} compile_jobs;

/* Queues the compile whose arguments fill j->argv[j->n] as job j->n, its output to
 * the work directory's log `name`. */
static void queue_job(compile_jobs *j, const model_build *b, const char *name)
{
    snprintf(j->out[j->n], sizeof j->out[j->n], "%s/%s", b->work_dir, name);
    j->argvs[j->n] = j->argv[j->n];
    j->outs[j->n] = j->out[j->n];
    j->n++;
}

/* The harness's compile, as job j->n. */
static void harness_job(model_build *b, cxx_includes *c, compile_jobs *j)
{
    char **argv = j->argv[j->n];
    int na = 0;
    argv[na++] = (char *)b->cxx;
    na = cxx_flags_of(argv, na, "-O2", c->inc, c->inc_std, (b->flags & SIM_BUILD_WAVES) != 0);
    na = use_pch(argv, na, c->inc_pch);
    argv[na++] = c->inc_obj;
    argv[na++] = c->inc_abi;
    if (build_threads(b)) {
        snprintf(b->threads_define, sizeof b->threads_define, "-DCLHLS_MODEL_THREADS=%u",
                 build_threads(b));
        argv[na++] = b->threads_define;
    }
    argv[na++] = "-c";
    argv[na++] = (char *)b->harness;
    argv[na++] = "-o";
    argv[na++] = b->h_o;
    argv[na] = NULL;
    queue_job(j, b, "cxx_harness.log");
}

/* Unit unit's compile (0: the slow code at -O0; else per-cycle code at opt), as job
 * j->n. */
static void unit_job(model_build *b, cxx_includes *c, unsigned unit, const char *opt,
                     compile_jobs *j)
{
    snprintf(b->obj[unit], sizeof b->obj[unit], "%s/model_%u.o", b->work_dir, unit);
    char **argv = j->argv[j->n];
    int na = 0;
    argv[na++] = (char *)b->cxx;
    na = cxx_flags_of(argv, na, unit ? opt : "-O0", c->inc, c->inc_std,
                      (b->flags & SIM_BUILD_WAVES) != 0);
    na = use_pch(argv, na, c->inc_pch);
    argv[na++] = c->inc_obj;
    if (unit && !(b->flags & SIM_BUILD_RTL_OPERATORS)) {
        /* the operators' models inlined into their per-cycle callers */
        argv[na++] = "-include";
        argv[na++] = c->m_inline;
        argv[na++] = "-ffp-contract=off";
    }
    argv[na++] = "-c";
    argv[na++] = b->u.path[unit];
    argv[na++] = "-o";
    argv[na++] = b->obj[unit];
    argv[na] = NULL;
    char name[32];
    snprintf(name, sizeof name, "cxx_model_%u.log", unit);
    queue_job(j, b, name);
}

/* The operator models' compile (C, as the template tests compile them), as job j->n. */
static void models_job(model_build *b, cxx_includes *c, compile_jobs *j)
{
    char *const model[] = {(char *)b->cxx, "-x", "c", "-std=c11", "-O2", "-fPIC",
                           "-ffp-contract=off", "-fno-fast-math",
                           "-fvisibility=hidden", "-c", c->m_src, "-o", b->m_o, NULL};
    char **argv = j->argv[j->n];
    for (int k = 0; model[k]; k++)
        argv[k] = model[k];
    argv[sizeof model / sizeof *model - 1] = NULL;
    queue_job(j, b, "cxx_fp_model.log");
}

/* Verilator's FST writer (with the FST library it includes) for the traced variant, as
 * job j->n; the shared runtime leaves it out, so the normal model never has it. */
static void fst_job(model_build *b, cxx_includes *c, compile_jobs *j)
{
    snprintf(b->fst_src, sizeof b->fst_src, "%s/include/verilated_fst_c.cpp", b->root);
    snprintf(b->fst_o, sizeof b->fst_o, "%s/verilated_fst_c.o", b->work_dir);
    char **argv = j->argv[j->n];
    int na = 0;
    argv[na++] = (char *)b->cxx;
    na = cxx_flags_of(argv, na, "-O2", c->inc, c->inc_std, 1);
    argv[na++] = "-c";
    argv[na++] = b->fst_src;
    argv[na++] = "-o";
    argv[na++] = b->fst_o;
    argv[na] = NULL;
    queue_job(j, b, "cxx_fst.log");
}

/* 3. The generated C++ (write_units) and the harness, two compilers at once. Job
 * order: the per-cycle units (the longest), the harness, the slow unit, the operator
 * models. */
static int compile_model(model_build *b)
{
    cxx_includes c;
    cxx_includes_of(b, &c);
    snprintf(b->h_o, sizeof b->h_o, "%s/harness.o", b->work_dir);
    snprintf(b->m_o, sizeof b->m_o, "%s/fp_model.o", b->work_dir);
    if (write_units(b->obj_dir, b->work_dir, &b->u, b->log))
        return SIM_ERR_BUILD;
    const char *fast_opt = b->u.fast_bytes > O2_MAX_BYTES ? "-O1" : "-O2";
    step_begins(b->progress, b->ctx, "C++ compile of the model");
    double t = now_seconds();
    compile_jobs jobs, *j = &jobs;
    j->n = 0;
    for (unsigned k = 1; k <= b->u.n; k++) {
        unsigned unit = k % b->u.n; /* 1, 2, ..., n - 1, then 0 */
        if (unit == 0)
            harness_job(b, &c, j); /* the harness, before the slow unit */
        unit_job(b, &c, unit, fast_opt, j);
    }
    if (!(b->flags & SIM_BUILD_RTL_OPERATORS))
        models_job(b, &c, j);
    if (b->flags & SIM_BUILD_WAVES)
        fst_job(b, &c, j);
    if (run_all(j->argvs, j->outs, j->n, b->log))
        return SIM_ERR_BUILD;
    if (b->stats) {
        b->stats->compile_seconds = now_seconds() - t;
        b->stats->cxx_bytes = b->u.fast_bytes + b->u.slow_bytes;
        b->stats->cxx_files = b->u.files;
        b->stats->units = b->u.n;
        snprintf(b->stats->opt, sizeof b->stats->opt, "%s", fast_opt);
    }
    return SIM_OK;
}

/* 4. Link: only clhls_harness_get is exported, so models loaded side by side with
 * RTLD_LOCAL never share Verilator's global state; the library is renamed into place
 * when whole. */
static int link_model(model_build *b)
{
    char vscript[4200], vs_opt[4300], tmp_so[4200], out_l[4200];
    snprintf(vscript, sizeof vscript, "%s/exports.map", b->work_dir);
    snprintf(vs_opt, sizeof vs_opt, "-Wl,--version-script=%s", vscript);
    snprintf(tmp_so, sizeof tmp_so, "%s.tmp.%ld", b->out_so, (long)getpid());
    snprintf(out_l, sizeof out_l, "%s/link.log", b->work_dir);
    FILE *f = fopen(vscript, "w");
    if (!f || fputs("{ global: clhls_harness_get; local: *; };\n", f) < 0 || fclose(f)) {
        sb_printf(b->log, "clhls: cannot write %s\n", vscript);
        return SIM_ERR_BUILD;
    }
    char *argv[MAX_UNITS + 16];
    int na = 0;
    argv[na++] = (char *)b->cxx;
    argv[na++] = "-shared";
    argv[na++] = "-o";
    argv[na++] = tmp_so;
    for (unsigned k = 0; k < b->u.n; k++)
        argv[na++] = b->obj[k];
    if (!(b->flags & SIM_BUILD_RTL_OPERATORS))
        argv[na++] = b->m_o;
    if (b->flags & SIM_BUILD_WAVES)
        argv[na++] = b->fst_o;
    char *rest[] = {b->h_o, b->rtlib, vs_opt, "-Wl,--no-undefined", "-pthread", "-latomic",
                    NULL};
    for (int k = 0; rest[k]; k++)
        argv[na++] = rest[k];
    if (b->flags & SIM_BUILD_WAVES)
        argv[na++] = "-lz"; /* the FST writer compresses */
    argv[na] = NULL;
    step_begins(b->progress, b->ctx, "link of the model");
    double t = now_seconds();
    if (run(argv, out_l, b->log)) {
        unlink(tmp_so);
        return SIM_ERR_BUILD;
    }
    if (rename(tmp_so, b->out_so)) {
        sb_printf(b->log, "clhls: cannot rename %s to %s: %s\n", tmp_so, b->out_so,
                  strerror(errno));
        unlink(tmp_so);
        return SIM_ERR_BUILD;
    }
    if (b->stats)
        b->stats->link_seconds = now_seconds() - t;
    return SIM_OK;
}

int sim_build_model_progress(const char *const *verilog_files, size_t nfiles,
                             const char *top, const char *work_dir, const char *runtime_dir,
                             const char *out_so, unsigned flags,
                             void (*progress)(void *ctx, const char *step), void *ctx,
                             char **log_out, sim_build_stats *stats)
{
    strbuf log = {.lossy = 1}; /* a full memory loses log text, never the host program */
    int rc;
    if (log_out)
        *log_out = NULL;
    if (stats)
        memset(stats, 0, sizeof *stats);
    model_build build, *b = &build;
    if (!verilog_files || nfiles == 0 || nfiles > MAX_ARGS * 16 || !top || !work_dir ||
        !runtime_dir || !out_so) {
        sb_printf(&log, "clhls: sim_build_model: missing argument\n");
        rc = SIM_ERR_ARG;
    } else {
        memset(b, 0, sizeof *b);
        b->verilog_files = verilog_files, b->nfiles = nfiles, b->top = top;
        b->work_dir = work_dir, b->runtime_dir = runtime_dir, b->out_so = out_so;
        b->flags = flags, b->progress = progress, b->ctx = ctx;
        b->log = &log, b->stats = stats;
        rc = find_tools(b);          /* Verilator, the C++ compiler, the harness */
        if (rc == SIM_OK)
            rc = verilate(b);        /* 1. Verilog -> C++ */
        if (rc == SIM_OK)
            rc = clock_records(b);   /*    and the clocks the harness lowers */
        if (rc == SIM_OK)
            rc = runtime(b);         /* 2. Verilator's runtime, once */
        if (rc == SIM_OK)
            rc = compile_model(b);   /* 3. the C++ and the harness */
        if (rc == SIM_OK)
            rc = link_model(b);      /* 4. model.so */
    }
    if (log_out)
        *log_out = sb_take(&log);
    else
        sb_free(&log);
    return rc;
}
