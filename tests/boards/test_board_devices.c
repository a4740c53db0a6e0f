/* Every board as an OpenCL device: with CLHLS_BOARDS naming all the board files, the
 * ICD offers one device per board, and each device answers the size queries with its
 * board's numbers (global memory, largest buffer, local memory, clock, compute units).
 * On the boards with small memories a buffer of the largest size is created, written
 * at both ends and read back. A kernel runs on the iCEBreaker with global ids at the
 * top of its 24-bit index width (offset + size below 2^24). */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"

#define SMALL_MEMORY (64u << 20) /* buffers up to this size are really allocated */

/* CLHLS_BOARDS set to every board on the search path, before the ICD is loaded. */
static char **names;
static size_t nnames;

static void setup(void)
{
    names = board_list();
    char list[4096] = "";
    for (nnames = 0; names[nnames]; nnames++) {
        if (nnames)
            strncat(list, ",", sizeof list - strlen(list) - 1);
        strncat(list, names[nnames], sizeof list - strlen(list) - 1);
    }
    setenv("CLHLS_BOARDS", list, 1);
}

static void teardown(void) { board_list_free(names); }

TestSuite(board_devices, .init = setup, .fini = teardown);

/* The device whose name starts with the board's name. */
static cl_device_id device_of(const char *board)
{
    cl_platform_id platform;
    cl_device_id devices[32];
    cl_uint n = 0;
    cr_assert_eq(clGetPlatformIDs(1, &platform, NULL), CL_SUCCESS);
    cr_assert_eq(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 32, devices, &n), CL_SUCCESS);
    cr_assert_eq(n, nnames, "%u devices for %zu boards", n, nnames);
    for (cl_uint i = 0; i < n; i++) {
        char name[256];
        clGetDeviceInfo(devices[i], CL_DEVICE_NAME, sizeof name, name, NULL);
        size_t len = strlen(board);
        if (!strncmp(name, board, len) && name[len] == ' ')
            return devices[i];
    }
    cr_assert_fail("no device for board %s", board);
    return NULL;
}

Test(board_devices, every_board_is_a_device_with_its_numbers)
{
    for (size_t i = 0; i < nnames; i++) {
        char err[512];
        board_t *b = board_load(names[i], err, sizeof err);
        cr_assert(b, "%s", err);
        cl_device_id d = device_of(b->name);
        cl_ulong global = 0, alloc = 0, local = 0;
        cl_uint mhz = 0, units = 0;
        clGetDeviceInfo(d, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof global, &global, NULL);
        clGetDeviceInfo(d, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof alloc, &alloc, NULL);
        clGetDeviceInfo(d, CL_DEVICE_LOCAL_MEM_SIZE, sizeof local, &local, NULL);
        clGetDeviceInfo(d, CL_DEVICE_MAX_CLOCK_FREQUENCY, sizeof mhz, &mhz, NULL);
        clGetDeviceInfo(d, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL);
        cr_expect_eq(global, b->global_mem_bytes, "%s", b->name);
        cr_expect_eq(alloc, b->max_alloc_bytes, "%s", b->name);
        cr_expect_eq(local, b->local_mem_bytes, "%s", b->name);
        cr_expect_eq(mhz, (cl_uint)(b->clock_mhz + 0.5), "%s", b->name);
        cr_expect_eq(units, b->compute_units, "%s", b->name);
        board_free(b);
    }
}

Test(board_devices, the_largest_buffer_of_a_small_board_is_usable)
{
    for (size_t i = 0; i < nnames; i++) {
        char err[512];
        board_t *b = board_load(names[i], err, sizeof err);
        cr_assert(b, "%s", err);
        if (b->max_alloc_bytes > SMALL_MEMORY) {
            board_free(b);
            continue;
        }
        cl_device_id d = device_of(b->name);
        cl_int e;
        cl_context ctx = clCreateContext(NULL, 1, &d, NULL, NULL, &e);
        cr_assert_eq(e, CL_SUCCESS);
        cl_command_queue q = clCreateCommandQueue(ctx, d, 0, &e);
        cr_assert_eq(e, CL_SUCCESS);
        size_t size = b->max_alloc_bytes;
        cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, size, NULL, &e);
        cr_assert_eq(e, CL_SUCCESS, "%s: a buffer of %zu bytes: %d", b->name, size, e);
        unsigned char ends[2] = {0x5a, 0xa5}, back[2] = {0, 0};
        cr_expect_eq(clEnqueueWriteBuffer(q, m, CL_TRUE, 0, 1, &ends[0], 0, NULL, NULL), CL_SUCCESS);
        cr_expect_eq(clEnqueueWriteBuffer(q, m, CL_TRUE, size - 1, 1, &ends[1], 0, NULL, NULL),
                     CL_SUCCESS);
        cr_expect_eq(clEnqueueReadBuffer(q, m, CL_TRUE, 0, 1, &back[0], 0, NULL, NULL), CL_SUCCESS);
        cr_expect_eq(clEnqueueReadBuffer(q, m, CL_TRUE, size - 1, 1, &back[1], 0, NULL, NULL),
                     CL_SUCCESS);
        cr_expect_eq(back[0], 0x5a, "%s", b->name);
        cr_expect_eq(back[1], 0xa5, "%s", b->name);
        /* One byte more than the largest buffer is refused. */
        cl_mem big = clCreateBuffer(ctx, CL_MEM_READ_WRITE, size + 1, NULL, &e);
        cr_expect_eq(e, CL_INVALID_BUFFER_SIZE, "%s", b->name);
        if (big)
            clReleaseMemObject(big);
        clReleaseMemObject(m);
        clReleaseCommandQueue(q);
        clReleaseContext(ctx);
        board_free(b);
    }
}

/* The iCEBreaker counts work-items in 24 bits: global ids just below 2^24 come out
 * right (the hardware's narrower index zero-extends), and an NDRange whose offset and
 * size reach 2^24 is refused at enqueue. Its memory port is 32 bits wide: a float4, a
 * long or a double is moved in 32-bit pieces, each by its own load-store unit. */
Test(board_devices, global_ids_in_a_narrow_index_width)
{
    static const char *src =
        "__kernel void ids(__global uint *out)\n"
        "{\n"
        "    out[get_global_id(0) - get_global_offset(0)] = (uint)get_global_id(0);\n"
        "}\n"
        "__kernel void wide(__global float4 *f, __global long *l, __global double *d)\n"
        "{\n"
        "    size_t i = get_global_id(0);\n"
        "    f[i] = f[i] * 2.0f + (float4)(0.5f, 1.0f, 1.5f, 2.0f);\n"
        "    l[i] = l[i] * 3 - 0x100000000l;\n"
        "    d[i] = d[i] / 4.0;\n"
        "}\n";
    char err[512];
    board_t *b = board_load("icebreaker", err, sizeof err);
    cr_assert(b, "%s", err);
    cr_assert_eq(b->work_item_index_bits, 24);
    board_free(b);
    cl_device_id d = device_of("icebreaker");
    cl_int e;
    cl_context ctx = clCreateContext(NULL, 1, &d, NULL, NULL, &e);
    cr_assert_eq(e, CL_SUCCESS);
    cl_command_queue q = clCreateCommandQueue(ctx, d, 0, &e);
    cr_assert_eq(e, CL_SUCCESS);
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &e);
    cr_assert_eq(e, CL_SUCCESS);
    cr_assert_eq(clBuildProgram(p, 1, &d, "", NULL, NULL), CL_SUCCESS);
    cl_kernel k = clCreateKernel(p, "ids", &e);
    cr_assert_eq(e, CL_SUCCESS);
    enum { N = 64 };
    cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * sizeof(cl_uint), NULL, &e);
    cr_assert_eq(e, CL_SUCCESS);
    cr_assert_eq(clSetKernelArg(k, 0, sizeof out, &out), CL_SUCCESS);
    size_t offset = (1u << 24) - 1 - N, global = N, local = 16; /* offset + size < 2^24 */
    cr_assert_eq(clEnqueueNDRangeKernel(q, k, 1, &offset, &global, &local, 0, NULL, NULL),
                 CL_SUCCESS);
    cl_uint ids[N];
    cr_assert_eq(clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof ids, ids, 0, NULL, NULL),
                 CL_SUCCESS);
    for (cl_uint i = 0; i < N; i++)
        cr_expect_eq(ids[i], offset + i, "work-item %u: %u", i, ids[i]);
    offset++;
    cr_expect_eq(clEnqueueNDRangeKernel(q, k, 1, &offset, &global, &local, 0, NULL, NULL),
                 CL_INVALID_GLOBAL_OFFSET);
    global = (size_t)1 << 24;
    cr_expect_eq(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL),
                 CL_INVALID_GLOBAL_WORK_SIZE);

    cl_kernel kw = clCreateKernel(p, "wide", &e);
    cr_assert_eq(e, CL_SUCCESS);
    cl_float f[4 * N];
    cl_long l[N];
    cl_double dv[N];
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < 4; j++)
            f[4 * i + j] = (float)(i * 4 + j) - 100.0f;
        l[i] = (cl_long)0x123456789ll * (i - 20);
        dv[i] = 1e300 / (i + 1);
    }
    cl_mem bf = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof f, f, &e);
    cl_mem bl = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof l, l, &e);
    cl_mem bd = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof dv, dv, &e);
    cr_assert_eq(e, CL_SUCCESS);
    cr_assert_eq(clSetKernelArg(kw, 0, sizeof bf, &bf), CL_SUCCESS);
    cr_assert_eq(clSetKernelArg(kw, 1, sizeof bl, &bl), CL_SUCCESS);
    cr_assert_eq(clSetKernelArg(kw, 2, sizeof bd, &bd), CL_SUCCESS);
    global = N;
    cr_assert_eq(clEnqueueNDRangeKernel(q, kw, 1, NULL, &global, &local, 0, NULL, NULL),
                 CL_SUCCESS);
    cl_float fo[4 * N];
    cl_long lo[N];
    cl_double dout[N];
    cr_assert_eq(clEnqueueReadBuffer(q, bf, CL_TRUE, 0, sizeof fo, fo, 0, NULL, NULL), CL_SUCCESS);
    cr_assert_eq(clEnqueueReadBuffer(q, bl, CL_TRUE, 0, sizeof lo, lo, 0, NULL, NULL), CL_SUCCESS);
    cr_assert_eq(clEnqueueReadBuffer(q, bd, CL_TRUE, 0, sizeof dout, dout, 0, NULL, NULL),
                 CL_SUCCESS);
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < 4; j++)
            cr_expect_eq(fo[4 * i + j], f[4 * i + j] * 2.0f + 0.5f * (float)(j + 1),
                         "float4 %d.%d: %g", i, j, fo[4 * i + j]);
        cr_expect_eq(lo[i], l[i] * 3 - 0x100000000ll, "long %d", i);
        cr_expect_eq(dout[i], dv[i] / 4.0, "double %d", i);
    }
    clReleaseMemObject(bf);
    clReleaseMemObject(bl);
    clReleaseMemObject(bd);
    clReleaseKernel(kw);
    clReleaseMemObject(out);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
}
