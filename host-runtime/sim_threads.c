/* The multi-threaded model for big designs (docs/user-guide.md, "Environment
 * variables"): with CLHLS_SIM_THREADS=N (N >= 2) a program whose model is big enough
 * (CLHLS_SIM_THREADS_MIN, the C++ Verilator generated for it, model.json's cxx_bytes)
 * is loaded in its variant verilated with --threads N, whose every cycle is evaluated
 * on N threads with the same cycle counts and results. This file reads the variables
 * once, finds the variant in the build's cache entry (ENTRY/threadsN/model.so) or has
 * the `clhls` tool build it in a child process (`clhls threads-model ENTRY --threads
 * N`, as waves.c does for the traced model), and says on stderr, once per reason, why a
 * program runs single-threaded instead: a design below the threshold, CLHLS_WAVES set,
 * a build that failed. Unset, 0 or 1: nothing changes. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "fsutil.h"
#include "manifest.h"
#include "rt.h"

/* The threshold without CLHLS_SIM_THREADS_MIN: 4 MiB of generated C++ (vadd's model has
 * about 0.7 MB, box_blur's 3 MB, matmul_tiled's 6 MB). */
#define DEFAULT_MIN_CXX_BYTES (4ull << 20)
#define MAX_THREADS 64 /* SIM_MAX_THREADS of the simulator */

/* The variables, read once. */
typedef struct threads_config {
    unsigned threads;           /* Verilator threads of the model; 0: single-threaded */
    unsigned long long min_cxx_bytes; /* the least generated C++ of a threaded model */
} threads_config;

static threads_config config;
static pthread_once_t config_once = PTHREAD_ONCE_INIT;
/* Notes already given (each once per process). */
static atomic_int noted_small, noted_waves, noted_size_unknown;

/* A size in bytes with an optional K or M (KiB, MiB); 0 on success. */
static int parse_bytes(const char *s, unsigned long long *bytes)
{
    char *end;
    errno = 0;
    unsigned long long n = strtoull(s, &end, 10);
    if (errno || end == s || *s == '-')
        return -1;
    unsigned shift = 0;
    if (*end == 'K' || *end == 'k')
        shift = 10, end++;
    else if (*end == 'M' || *end == 'm')
        shift = 20, end++;
    if (*end || n > (~0ull >> shift))
        return -1;
    *bytes = n << shift;
    return 0;
}

static void read_config(void)
{
    config.min_cxx_bytes = DEFAULT_MIN_CXX_BYTES;
    const char *min = getenv("CLHLS_SIM_THREADS_MIN");
    if (min && *min && parse_bytes(min, &config.min_cxx_bytes) != 0) {
        fprintf(stderr, "clhls: CLHLS_SIM_THREADS_MIN=%s: expected a size in bytes (4194304, "
                        "4096K, 4M); using 4M\n", min);
        config.min_cxx_bytes = DEFAULT_MIN_CXX_BYTES;
    }
    const char *text = getenv("CLHLS_SIM_THREADS");
    if (!text || !*text)
        return;
    char *end;
    errno = 0;
    unsigned long n = strtoul(text, &end, 10);
    if (errno || *end || *text < '0' || *text > '9' || n > MAX_THREADS) {
        fprintf(stderr, "clhls: CLHLS_SIM_THREADS=%s: expected a number of threads, 0 to %d; "
                        "the models run single-threaded\n", text, MAX_THREADS);
        return;
    }
    if (n < 2)
        return; /* 0 and 1: the single-threaded model */
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (cores >= 1 && (unsigned long)cores < n) {
        /* more threads than cores only wait for each other */
        fprintf(stderr, "clhls: CLHLS_SIM_THREADS=%lu: this host has %ld cores; %s\n", n,
                cores, cores >= 2 ? "using that many threads" : "the models run single-threaded");
        n = cores >= 2 ? (unsigned long)cores : 0;
    }
    config.threads = (unsigned)n;
}

/* The C++ Verilator generated for the entry's model (model.json's cxx_bytes): 0 and the
 * size, or -1 when the entry does not say. */
static int model_cxx_bytes(const char *entry, unsigned long long *bytes)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/model.json", entry);
    cJSON *root = hls_read_json(path);
    const cJSON *size = cJSON_GetObjectItemCaseSensitive(root, "cxx_bytes");
    int rc = -1;
    if (cJSON_IsNumber(size) && size->valuedouble >= 0) {
        *bytes = (unsigned long long)size->valuedouble;
        rc = 0;
    }
    cJSON_Delete(root);
    return rc;
}

/* Prints a note on stderr unless *given says it was printed. */
static void note_once(atomic_int *given, const char *format, ...)
{
    if (atomic_exchange(given, 1))
        return;
    va_list ap;
    va_start(ap, format);
    vfprintf(stderr, format, ap);
    va_end(ap);
}

int rt_sim_threads_model(const char *entry, char *so, size_t so_len)
{
    pthread_once(&config_once, read_config);
    const unsigned threads = config.threads;
    if (!threads)
        return 0;
    if (rt_waves_config()->on) {
        note_once(&noted_waves, "clhls: CLHLS_SIM_THREADS is ignored while CLHLS_WAVES "
                                "records: the traced model is single-threaded\n");
        return 0;
    }
    unsigned long long bytes;
    if (model_cxx_bytes(entry, &bytes) != 0) {
        note_once(&noted_size_unknown,
                  "clhls: CLHLS_SIM_THREADS: %s/model.json does not give the model's size; "
                  "the program runs single-threaded\n", entry);
        return 0;
    }
    if (bytes < config.min_cxx_bytes) {
        note_once(&noted_small,
                  "clhls: CLHLS_SIM_THREADS: the design is too small for threads (%llu bytes "
                  "of generated C++, CLHLS_SIM_THREADS_MIN is %llu); it runs single-threaded, "
                  "as will other designs below that size\n", bytes, config.min_cxx_bytes);
        return 0;
    }
    char dir[4200], why[2048], count[16];
    snprintf(dir, sizeof dir, "%s/threads%u", entry, threads);
    if (hls_entry_usable(dir, "model.so", why, sizeof why) == 1) {
        snprintf(so, so_len, "%s/model.so", dir);
        return 1;
    }
    fprintf(stderr, "clhls: CLHLS_SIM_THREADS: building the program's model on %u threads "
                    "(once per build; clhls threads-model ENTRY --threads %u makes it "
                    "beforehand) ...\n", threads, threads);
    snprintf(count, sizeof count, "%u", threads);
    const char *args[] = {"threads-model", entry, "--threads", count, NULL};
    if (rt_model_variant_build(args, "threaded", so, so_len, why, sizeof why) != 0) {
        fprintf(stderr, "clhls: CLHLS_SIM_THREADS: %s\nclhls: the program runs "
                        "single-threaded\n", why);
        return 0;
    }
    return 1;
}
