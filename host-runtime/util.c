/* Small shared helpers of the runtime: the one allocation hook (every runtime
 * allocation goes through rt_alloc, so a test can make allocations fail with
 * CLHLS_FAIL_ALLOC_AFTER=N; the counter is the process's one, common/alloc.c, which the
 * simulator bridge counts on too), the host clock and the profiling clock, logging of
 * failed argument checks (CLHLS_VERBOSE=1 or CLHLS_API_LOG=1) and the clGet*Info copy
 * rule. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "alloc.h"
#include "fsutil.h"
#include "rt.h"

void *rt_alloc(size_t size)
{
    return hls_try_alloc(size);
}

void *rt_realloc(void *p, size_t size)
{
    return hls_try_realloc(p, size);
}

void rt_free(void *p) { free(p); }

char *rt_strdup(const char *s)
{
    return hls_try_strdup(s);
}

unsigned char *rt_read_file(const char *path, size_t *len)
{
    return (unsigned char *)hls_read_file(path, 0, len);
}

uint64_t rt_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The profiling clock. Host time runs as it does, except while a host thread waits for
 * the device: the simulation takes far longer on the host than the modelled time, so a
 * wait ends, on this clock, when what it waited for ended on the device timeline (or
 * when it began, if that was later). skew is what the clock lags behind the host's
 * monotonic clock (negative when modelled time ran ahead of the simulation); last is
 * the latest value handed out, so the clock never goes backwards. */
static pthread_mutex_t clock_lock = PTHREAD_MUTEX_INITIALIZER;
static int64_t clock_skew;      /* host monotonic minus profiling clock (clock_lock) */
static uint64_t clock_last;     /* latest value handed out (clock_lock) */

/* The clock's value now; clock_lock held. */
static uint64_t clock_read(uint64_t host)
{
    uint64_t v = (uint64_t)((int64_t)host - clock_skew);
    return v > clock_last ? v : clock_last;
}

uint64_t rt_clock_now(void)
{
    pthread_mutex_lock(&clock_lock);
    uint64_t v = clock_read(rt_now_ns());
    clock_last = v;
    pthread_mutex_unlock(&clock_lock);
    return v;
}

void rt_clock_waited(uint64_t began, uint64_t until)
{
    pthread_mutex_lock(&clock_lock);
    uint64_t host = rt_now_ns();
    uint64_t v = began > until ? began : until;
    if (v < clock_last)
        v = clock_last;
    clock_skew = (int64_t)host - (int64_t)v;
    clock_last = v;
    pthread_mutex_unlock(&clock_lock);
}

void rt_clock_observe(uint64_t t)
{
    pthread_mutex_lock(&clock_lock);
    uint64_t host = rt_now_ns();
    uint64_t v = clock_read(host);
    if (t > v) {
        clock_skew = (int64_t)host - (int64_t)t;
        v = t;
    }
    clock_last = v;
    pthread_mutex_unlock(&clock_lock);
}

int rt_verbose(void)
{
    const char *s = getenv("CLHLS_VERBOSE");
    return s && *s && strcmp(s, "0") != 0;
}

void rt_log_check(const char *func, const char *cond, cl_int code)
{
    const char *s = getenv("CLHLS_API_LOG");
    if ((s && *s && strcmp(s, "0") != 0) || rt_verbose())
        fprintf(stderr, "clhls: %s: %s (failed: %s)\n", func, rt_error_name(code), cond);
}

cl_int rt_info(size_t size, void *value, size_t *size_ret, const void *src, size_t src_size)
{
    if (value) {
        if (size < src_size)
            return CL_INVALID_VALUE;
        if (src_size)
            memcpy(value, src, src_size);
    }
    if (size_ret)
        *size_ret = src_size;
    return CL_SUCCESS;
}

const char *rt_error_name(cl_int code)
{
    switch (code) {
#define E(x) case x: return #x;
    E(CL_SUCCESS) E(CL_DEVICE_NOT_FOUND) E(CL_DEVICE_NOT_AVAILABLE)
    E(CL_COMPILER_NOT_AVAILABLE) E(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    E(CL_OUT_OF_RESOURCES) E(CL_OUT_OF_HOST_MEMORY) E(CL_PROFILING_INFO_NOT_AVAILABLE)
    E(CL_MEM_COPY_OVERLAP) E(CL_BUILD_PROGRAM_FAILURE) E(CL_MAP_FAILURE)
    E(CL_MISALIGNED_SUB_BUFFER_OFFSET) E(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    E(CL_INVALID_VALUE) E(CL_INVALID_DEVICE_TYPE) E(CL_INVALID_PLATFORM)
    E(CL_INVALID_DEVICE) E(CL_INVALID_CONTEXT) E(CL_INVALID_QUEUE_PROPERTIES)
    E(CL_INVALID_COMMAND_QUEUE) E(CL_INVALID_HOST_PTR) E(CL_INVALID_MEM_OBJECT)
    E(CL_INVALID_BINARY) E(CL_INVALID_BUILD_OPTIONS) E(CL_INVALID_PROGRAM)
    E(CL_INVALID_PROGRAM_EXECUTABLE) E(CL_INVALID_KERNEL_NAME) E(CL_INVALID_KERNEL)
    E(CL_INVALID_ARG_INDEX) E(CL_INVALID_ARG_VALUE) E(CL_INVALID_ARG_SIZE)
    E(CL_INVALID_KERNEL_ARGS) E(CL_INVALID_WORK_DIMENSION) E(CL_INVALID_WORK_GROUP_SIZE)
    E(CL_INVALID_WORK_ITEM_SIZE) E(CL_INVALID_GLOBAL_OFFSET) E(CL_INVALID_EVENT_WAIT_LIST)
    E(CL_INVALID_EVENT) E(CL_INVALID_OPERATION) E(CL_INVALID_BUFFER_SIZE)
    E(CL_INVALID_GLOBAL_WORK_SIZE) E(CL_INVALID_PROPERTY) E(CL_INVALID_KERNEL_DEFINITION)
    E(CL_INVALID_DEVICE_PARTITION_COUNT)
#undef E
    default:
        return "CL_(unknown error)";
    }
}

/* Little-endian 64-bit words, as the argument area and the registers hold them. */
void rt_put_le64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

uint64_t rt_get_le64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}
