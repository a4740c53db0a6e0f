/* The allocation hook of the whole toolchain (alloc.h). CLHLS_FAIL_ALLOC_AFTER=N, read
 * at the first allocation, lets the first N allocations of the process succeed and
 * fails every later one, so a test can walk N from 0 up and see each allocation fail
 * in turn (tests/e2e/oom.c for a host program, tests/cli/test_build_oom.sh for the
 * compiler). Thread-safe: the budget is one atomic counter. */
#include "alloc.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Allocations left before the injected failures; -1 = never fail, -2 = not read yet. */
static atomic_long budget = -2;
/* Allocations counted. */
static atomic_long counted;
/* 1 once an allocation through the hook failed. */
static atomic_int ran_out;

int hls_alloc_fails(void)
{
    atomic_fetch_add(&counted, 1);
    long b = atomic_load(&budget);
    if (b == -2) {
        const char *s = getenv("CLHLS_FAIL_ALLOC_AFTER");
        long init = s && *s ? atol(s) : -1;
        atomic_compare_exchange_strong(&budget, &b, init < 0 ? -1 : init);
    }
    for (;;) {
        b = atomic_load(&budget);
        if (b < 0)
            return 0;
        if (b == 0)
            return 1;
        if (atomic_compare_exchange_weak(&budget, &b, b - 1))
            return 0;
    }
}

long hls_alloc_count(void)
{
    return atomic_load(&counted);
}

int hls_alloc_ran_out(void)
{
    return atomic_load(&ran_out);
}

/* Notes a failed allocation; returns NULL with errno ENOMEM. */
static void *failed(void)
{
    atomic_store(&ran_out, 1);
    errno = ENOMEM;
    return NULL;
}

void *hls_try_alloc(size_t size)
{
    void *p = hls_alloc_fails() ? NULL : calloc(1, size ? size : 1);
    return p ? p : failed();
}

void *hls_try_realloc(void *p, size_t size)
{
    void *q = hls_alloc_fails() ? NULL : realloc(p, size ? size : 1);
    return q ? q : failed();
}

char *hls_try_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = hls_try_alloc(n);
    return d ? memcpy(d, s, n) : NULL;
}

/* What hls_out_of_memory runs before it exits; NULL when nothing. */
static void (*_Atomic oom_cleanup)(void);

void hls_on_out_of_memory(void (*cleanup)(void))
{
    oom_cleanup = cleanup;
}

_Noreturn void hls_out_of_memory(void)
{
    fputs("clhls: out of memory\n", stderr);
    void (*cleanup)(void) = oom_cleanup;
    if (cleanup)
        cleanup();
    exit(2); /* the clhls tool's status for a tool failure or an internal error */
}

void *hls_alloc(size_t size)
{
    void *p = hls_try_alloc(size);
    if (!p)
        hls_out_of_memory();
    return p;
}

void *hls_realloc(void *p, size_t size)
{
    void *q = hls_try_realloc(p, size);
    if (!q)
        hls_out_of_memory();
    return q;
}

char *hls_strdup(const char *s)
{
    char *d = hls_try_strdup(s);
    if (!d)
        hls_out_of_memory();
    return d;
}
