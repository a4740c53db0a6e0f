/* A host program that builds one kernel (argv[1] when given, else a fixed one) and
 * reports the build status: test_programs runs it as a separate process (to kill it in
 * the middle of clBuildProgram). */
#include <CL/cl.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    const char *src = argc > 1 ? argv[1] : "__kernel void k(__global int *a) { a[0] = 1; }";
    cl_platform_id platform;
    cl_device_id device;
    cl_int err;
    if (clGetPlatformIDs(1, &platform, NULL) ||
        clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL))
        return 2;
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    err = clBuildProgram(p, 0, NULL, "", NULL, NULL);
    printf("build status %d\n", err);
    clReleaseProgram(p);
    clReleaseContext(ctx);
    return 0;
}
