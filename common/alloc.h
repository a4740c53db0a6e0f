/* The allocation hook that every part of clhls goes through (common/alloc.c): the
 * compiler (hls_alloc, which ends the process when out of memory), the simulator
 * bridge and the runtime (hls_try_alloc, rt_alloc), which get NULL. One counter per
 * process, so CLHLS_FAIL_ALLOC_AFTER=N means the same in every process: the first N
 * allocations succeed and every later one fails. Part of the base library clhls_common,
 * which every layer links. */
#ifndef CLHLS_COMMON_ALLOC_H
#define CLHLS_COMMON_ALLOC_H

#include <stddef.h>

/* Counts one allocation; 1 when it is to fail (CLHLS_FAIL_ALLOC_AFTER), else 0. */
int hls_alloc_fails(void);
/* Allocations counted so far in this process. */
long hls_alloc_count(void);
/* 1 once an allocation through the hook has failed in this process (a part that
 * lost only its log text to it still fails: this says why). */
int hls_alloc_ran_out(void);

/* calloc, realloc and strdup through the hook: NULL on failure, injected or real
 * (errno ENOMEM). A size of 0 allocates one byte. */
void *hls_try_alloc(size_t size);
void *hls_try_realloc(void *p, size_t size);
char *hls_try_strdup(const char *s);

/* The same for a process that stops when out of memory (the compiler): never NULL;
 * hls_out_of_memory prints "clhls: out of memory", runs the cleanup given to
 * hls_on_out_of_memory (the compiler's: its scratch directory removed) and exits with
 * status 2. */
void *hls_alloc(size_t size);
void *hls_realloc(void *p, size_t size);
char *hls_strdup(const char *s);
_Noreturn void hls_out_of_memory(void);
void hls_on_out_of_memory(void (*cleanup)(void));

#endif
