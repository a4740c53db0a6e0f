/* Shared by the runtime's Criterion tests (included after criterion.h, or after
 * test_threads.c's stand-in for it): the first platform, device and a context on it,
 * and a failed build reported with its log. */
#ifndef CLHLS_RUNTIME_TEST_H
#define CLHLS_RUNTIME_TEST_H

#include <CL/cl.h>
#include <stdlib.h>

/* The first platform and device through the ICD loader, and a context on the device. */
static inline void rt_test_open(cl_platform_id *platform, cl_device_id *device,
                                cl_context *ctx)
{
    cr_assert_eq(clGetPlatformIDs(1, platform, NULL), CL_SUCCESS);
    cr_assert_eq(clGetDeviceIDs(*platform, CL_DEVICE_TYPE_ALL, 1, device, NULL), CL_SUCCESS);
    cl_int err;
    *ctx = clCreateContext(NULL, 1, device, NULL, NULL, &err);
    cr_assert_eq(err, CL_SUCCESS);
}

/* Fails the test with the build log of p, whose build returned err. */
static inline void rt_test_build_failed(cl_device_id device, cl_program p, cl_int err)
{
    size_t len = 0;
    clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &len);
    char *log = calloc(1, len + 1);
    clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, len, log, NULL);
    cr_log_error("build failed (%d):\n%s", err, log);
    free(log);
    cr_assert_fail("clBuildProgram failed");
}

#endif
