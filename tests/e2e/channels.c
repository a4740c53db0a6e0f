/* End-to-end: Intel's channels (cl_intel_channels) joining the kernels of one program,
 * the producer and the consumer enqueued on two queues so they run at once, as Intel's
 * host programs do. A pipelined task loop streams ints through a channel shallower
 * than the stream (the producer waits for room: back-pressure), a struct and a vector
 * go through channels of their types (a float4 and a 24-byte struct too, wider than
 * any scalar), an array of channels (indexed by an unrolled
 * loop) carries four lanes, an NDRange producer feeds a task consumer in work-item
 * order, a consumer polls with the non-blocking read and a producer retries the
 * non-blocking write, and the older cl_altera_channels spellings work. A writer
 * publishes stores with mem_fence(CLK_CHANNEL_MEM_FENCE) and the reader, told on a
 * channel, sees them. What a writer
 * run alone leaves in a channel waits there for a reader run after it. An autorun
 * kernel between two host kernels runs by itself and the host does not see it. A consumer left
 * alone ends, by the watchdog, with a negative status naming it, and the program
 * goes on. Channels the hardware cannot build (and a depth that is not a number, an
 * element over 256 bytes) are build errors pointing at the call.
 * OpenCL 2.0 pipes (a second program, -cl-std=CL2.0) are channels joined by the pipe
 * arguments' names: NDRange kernels with Intel's blocking and depth attributes, a
 * struct packet, the standard non-blocking read_pipe and write_pipe retried until
 * they succeed, get_pipe_num_packets and get_pipe_max_packets, a writer run alone
 * filling the FIFO's depth and failing after it, the pipe object's checks in
 * clSetKernelArg, a blocking reader alone named by the watchdog, and reservations
 * refused at build time.
 * Every run is checked against the host's computation, with the board's memory timing
 * and again under random memory latency and back-pressure (CLHLS_SIM_STRESS). */
#define CL_TARGET_OPENCL_VERSION 200 /* clCreatePipe, and 1.2 calls as Intel's hosts make */
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <stdarg.h>

#include "e2e.h"

#define N 1000

static const char *src =
    "#pragma OPENCL EXTENSION cl_intel_channels : enable\n"
    "typedef struct { int key; float value; } pair;\n"
    "channel int c_data __attribute__((depth(4)));\n"
    "channel pair c_pairs __attribute__((depth(8)));\n"
    "channel short4 c_vec;\n"
    "typedef struct { int a; float b; short c; char d; long e; } wide;\n"
    "channel float4 c_f4 __attribute__((depth(3)));\n"
    "channel wide c_wide __attribute__((depth(2)));\n"
    "channel uint lanes[4] __attribute__((depth(2)));\n"
    "channel int c_items __attribute__((depth(16)));\n"
    "channel int c_poll __attribute__((depth(2)));\n"
    "channel int c_idle;\n"
    "channel int c_keep __attribute__((depth(16)));\n"
    "\n"
    "__kernel void producer(__global const int *restrict in, int n)\n"
    "{\n"
    "    for (int i = 0; i < n; i++)\n"
    "        write_channel_intel(c_data, in[i] * 3);\n"
    "}\n"
    "__kernel void consumer(__global int *restrict out, int n)\n"
    "{\n"
    "    for (int i = 0; i < n; i++)\n"
    "        out[i] = read_channel_intel(c_data) + 1;\n"
    "}\n"
    "__kernel void pair_source(__global const int *restrict keys, int n)\n"
    "{\n"
    "    for (int i = 0; i < n; i++) {\n"
    "        pair p = {keys[i], keys[i] * 0.5f};\n"
    "        write_channel_intel(c_pairs, p);\n"
    "        write_channel_intel(c_vec, (short4)(i, -i, keys[i], 7));\n"
    "    }\n"
    "}\n"
    "__kernel void pair_sink(__global float *restrict out, __global int *restrict sums, int n)\n"
    "{\n"
    "    for (int i = 0; i < n; i++) {\n"
    "        pair p = read_channel_intel(c_pairs);\n"
    "        short4 v = read_channel_intel(c_vec);\n"
    "        out[i] = p.value + p.key;\n"
    "        sums[i] = v.x + v.y * 3 + v.z * 5 + v.w;\n"
    "    }\n"
    "}\n"
    "__kernel void wide_source(__global const float4 *restrict in, int n)\n"
    "{\n"
    "    for (int i = 0; i < n; i++) {\n"
    "        float4 v = in[i];\n"
    "        write_channel_intel(c_f4, v * 2.0f);\n"
    "        wide w = {i, v.y, (short)(i * 3), (char)i, (long)i << 40 | 5};\n"
    "        write_channel_intel(c_wide, w);\n"
    "    }\n"
    "}\n"
    "__kernel void wide_sink(__global float4 *restrict out, __global long *restrict mix, int n)\n"
    "{\n"
    "    for (int i = 0; i < n; i++) {\n"
    "        out[i] = read_channel_intel(c_f4) + 1.0f;\n"
    "        wide w = read_channel_intel(c_wide);\n"
    "        mix[i] = w.a + (long)w.b * 10 + w.c * 100 + w.d * 1000 + w.e;\n"
    "    }\n"
    "}\n"
    "__kernel void fan_out(__global const uint *restrict in, int n)\n"
    "{\n"
    "    for (int i = 0; i < n; i++) {\n"
    "        #pragma unroll\n"
    "        for (int j = 0; j < 4; j++)\n"
    "            write_channel_intel(lanes[j], in[i] + j);\n"
    "    }\n"
    "}\n"
    "__kernel void fan_in(__global uint *restrict out, int n)\n"
    "{\n"
    "    for (int i = 0; i < n; i++) {\n"
    "        uint x = 0;\n"
    "        #pragma unroll\n"
    "        for (int j = 0; j < 4; j++)\n"
    "            x ^= read_channel_intel(lanes[j]) << (8 * j);\n"
    "        out[i] = x;\n"
    "    }\n"
    "}\n"
    "__kernel void items(__global const int *restrict in)\n"
    "{\n"
    "    int i = get_global_id(0);\n"
    "    if (in[i] % 3 != 0)\n"
    "        write_channel_altera(c_items, in[i] - i);\n"
    "}\n"
    "__kernel void collect(__global int *restrict out, int n)\n"
    "{\n"
    "    for (int i = 0; i < n; i++)\n"
    "        out[i] = read_channel_altera(c_items);\n"
    "}\n"
    "__kernel void poll_writer(__global const int *restrict in, __global int *restrict tries,\n"
    "                          int n)\n"
    "{\n"
    "    int t = 0;\n"
    "    for (int i = 0; i < n; i++) {\n"
    "        bool ok = false;\n"
    "        while (!ok) {\n"
    "            ok = write_channel_nb_intel(c_poll, in[i]);\n"
    "            t++;\n"
    "        }\n"
    "    }\n"
    "    tries[0] = t;\n"
    "}\n"
    "__kernel void poll_reader(__global int *restrict out, __global int *restrict misses,\n"
    "                          int n)\n"
    "{\n"
    "    int got = 0, missed = 0;\n"
    "    while (got < n) {\n"
    "        bool valid;\n"
    "        int x = read_channel_nb_intel(c_poll, &valid);\n"
    "        if (valid)\n"
    "            out[got++] = x;\n"
    "        else\n"
    "            missed++;\n"
    "    }\n"
    "    misses[0] = missed;\n"
    "}\n"
    "__kernel void keep_writer(int n)\n"
    "{\n"
    "    for (int i = 0; i < n; i++)\n"
    "        write_channel_intel(c_keep, i * i);\n"
    "}\n"
    "__kernel void keep_reader(__global int *restrict out, int n)\n"
    "{\n"
    "    for (int i = 0; i < n; i++)\n"
    "        out[i] = read_channel_intel(c_keep);\n"
    "}\n"
    "channel int c_to_auto __attribute__((depth(4)));\n"
    "channel int c_from_auto __attribute__((depth(4)));\n"
    "__attribute__((max_global_work_dim(0)))\n"
    "__attribute__((autorun))\n"
    "__kernel void doubler(void)\n"
    "{\n"
    "    int x = read_channel_intel(c_to_auto);\n"
    "    write_channel_intel(c_from_auto, x * 2 + 1);\n"
    "}\n"
    "__kernel void auto_feed(__global const int *restrict in, int n)\n"
    "{\n"
    "    for (int i = 0; i < n; i++)\n"
    "        write_channel_intel(c_to_auto, in[i]);\n"
    "}\n"
    "__kernel void auto_drain(__global int *restrict out, int n)\n"
    "{\n"
    "    for (int i = 0; i < n; i++)\n"
    "        out[i] = read_channel_intel(c_from_auto);\n"
    "}\n"
    "channel int c_ready __attribute__((depth(8)));\n"
    "__kernel void publish(__global const int *restrict in, __global int *shared, int n)\n"
    "{\n"
    "    for (int i = 0; i < n; i++) {\n"
    "        shared[i] = in[i] * 5;\n"
    "        mem_fence(CLK_GLOBAL_MEM_FENCE | CLK_CHANNEL_MEM_FENCE);\n"
    "        write_channel_intel(c_ready, i);\n"
    "    }\n"
    "}\n"
    "__kernel void subscribe(__global const int *shared, __global int *restrict out, int n)\n"
    "{\n"
    "    for (int i = 0; i < n; i++) {\n"
    "        int j = read_channel_intel(c_ready);\n"
    "        mem_fence(CLK_GLOBAL_MEM_FENCE | CLK_CHANNEL_MEM_FENCE);\n"
    "        out[j] = shared[j] + 1;\n"
    "    }\n"
    "}\n"
    "__kernel void idle_writer(int x)\n"
    "{\n"
    "    write_channel_intel(c_idle, x);\n"
    "}\n"
    "__kernel void idle_reader(__global int *out)\n"
    "{\n"
    "    out[0] = read_channel_intel(c_idle);\n"
    "}\n";

/* OpenCL 2.0 pipes: the arguments of one name are one FIFO. */
static const char *pipe_src =
    "typedef struct { int id; float x; short tag; } packet;\n"
    "__kernel void pipe_items(__global const int *restrict in,\n"
    "                         write_only pipe int __attribute__((blocking))\n"
    "                             __attribute__((depth(8))) items)\n"
    "{\n"
    "    int v = in[get_global_id(0)] * 3;\n"
    "    write_pipe(items, &v);\n"
    "}\n"
    "__kernel void pipe_collect(read_only pipe int __attribute__((blocking)) items,\n"
    "                           __global int *restrict out)\n"
    "{\n"
    "    int v;\n"
    "    read_pipe(items, &v);\n"
    "    out[get_global_id(0)] = v + 1;\n"
    "}\n"
    "__kernel void packet_source(__global const int *restrict in, write_only pipe packet pk,\n"
    "                            __global int *restrict full)\n"
    "{\n"
    "    int i = get_global_id(0), tries = 0;\n"
    "    packet p = {i, in[i] * 0.25f, (short)(in[i] & 0x7fff)};\n"
    "    while (write_pipe(pk, &p) != 0)\n"
    "        tries++;\n"
    "    full[i] = tries;\n"
    "}\n"
    "__kernel void packet_sink(read_only pipe packet pk, __global float *restrict out,\n"
    "                          __global int *restrict empty, __global int *restrict seen)\n"
    "{\n"
    "    int i = get_global_id(0), tries = 0;\n"
    "    packet p;\n"
    "    while (read_pipe(pk, &p) != 0)\n"
    "        tries++;\n"
    "    out[p.id] = p.x + p.tag;\n"
    "    empty[i] = tries;\n"
    "    seen[i] = get_pipe_num_packets(pk) * 100 + get_pipe_max_packets(pk);\n"
    "}\n"
    "__kernel void fill(write_only pipe uint __attribute__((depth(4))) spill,\n"
    "                   __global int *restrict ok)\n"
    "{\n"
    "    uint v = get_global_id(0) * 11;\n"
    "    ok[get_global_id(0)] = write_pipe(spill, &v);\n"
    "}\n"
    "__kernel void drain(read_only pipe uint spill, __global uint *restrict out)\n"
    "{\n"
    "    uint v = 0;\n"
    "    int r = read_pipe(spill, &v);\n"
    "    out[get_global_id(0)] = r == 0 ? v : 0xdeadu;\n"
    "}\n"
    "__kernel void lonely_writer(write_only pipe int __attribute__((blocking)) quiet, int x)\n"
    "{\n"
    "    write_pipe(quiet, &x);\n"
    "}\n"
    "__kernel void lonely_reader(read_only pipe int __attribute__((blocking)) quiet,\n"
    "                            __global int *out)\n"
    "{\n"
    "    int v;\n"
    "    read_pipe(quiet, &v);\n"
    "    out[0] = v;\n"
    "}\n";

/* Two queues on the context: kernels enqueued on both run at once. */
static cl_command_queue second_queue(e2e_env *env)
{
    cl_int err;
    cl_command_queue q = clCreateCommandQueue(env->ctx, env->device, 0, &err);
    CL_OK(err);
    return q;
}

/* Runs a task on queue q without waiting; returns its event. */
static cl_event start_task(cl_command_queue q, cl_kernel k)
{
    cl_event ev;
    CL_OK(clEnqueueTask(q, k, 0, NULL, &ev));
    CL_OK(clFlush(q));
    return ev;
}

/* Waits for ev and returns its final status. */
static cl_int finish(cl_event ev)
{
    clWaitForEvents(1, &ev);
    cl_int st;
    CL_OK(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL));
    clReleaseEvent(ev);
    return st;
}

/* Releases a writing and a reading kernel and the buffers of their test (NULL-ended). */
static void release(cl_kernel w, cl_kernel r, cl_mem m, ...)
{
    clReleaseKernel(w);
    clReleaseKernel(r);
    va_list ap;
    va_start(ap, m);
    for (; m; m = va_arg(ap, cl_mem))
        clReleaseMemObject(m);
    va_end(ap);
}

/* A writing and a reading task at once, both complete. */
static void pair_of_tasks(e2e_env *env, cl_command_queue q2, cl_kernel writer, cl_kernel reader)
{
    cl_event r = start_task(q2, reader);
    cl_event w = start_task(env->queue, writer);
    EXPECT(finish(w) == CL_COMPLETE);
    EXPECT(finish(r) == CL_COMPLETE);
}

/* A writing and a reading NDRange of `global` work-items at once (the reader first),
 * both complete. */
static void pair_of_ndranges(e2e_env *env, cl_command_queue q2, cl_kernel writer,
                             cl_kernel reader, size_t global, size_t local)
{
    cl_event r, w;
    CL_OK(clEnqueueNDRangeKernel(q2, reader, 1, NULL, &global, &local, 0, NULL, &r));
    CL_OK(clFlush(q2));
    CL_OK(clEnqueueNDRangeKernel(env->queue, writer, 1, NULL, &global, &local, 0, NULL, &w));
    EXPECT(finish(w) == CL_COMPLETE);
    EXPECT(finish(r) == CL_COMPLETE);
}

static void stream(e2e_env *env, cl_program p, cl_command_queue q2)
{
    int in[N], out[N], n = N;
    for (int i = 0; i < N; i++)
        in[i] = i * 7 - 300;
    cl_mem a = e2e_buffer(env, sizeof in, in), b = e2e_filled_buffer(env, N, -1);
    cl_kernel w = e2e_kernel(p, "producer"), r = e2e_kernel(p, "consumer");
    E2E_ARG(w, 0, a);
    E2E_ARG(w, 1, n);
    E2E_ARG(r, 0, b);
    E2E_ARG(r, 1, n);
    pair_of_tasks(env, q2, w, r);
    e2e_read(env, b, sizeof out, out);
    for (int i = 0; i < N; i++)
        EXPECT(out[i] == in[i] * 3 + 1);
    release(w, r, a, b, NULL);
}

/* mem_fence(CLK_CHANNEL_MEM_FENCE): a writer stores an element, then says which one on a
 * channel; the reader, running at once, loads it only after hearing of it, and must see
 * the store, not the buffer's old contents (-1). */
static void fenced(e2e_env *env, cl_program p, cl_command_queue q2)
{
    enum { FENCED = 256 };
    int in[FENCED], out[FENCED], n = FENCED;
    for (int i = 0; i < FENCED; i++)
        in[i] = i * 3 - 100;
    cl_mem a = e2e_buffer(env, sizeof in, in), shared = e2e_filled_buffer(env, FENCED, -1),
           b = e2e_filled_buffer(env, FENCED, -7);
    cl_kernel w = e2e_kernel(p, "publish"), r = e2e_kernel(p, "subscribe");
    E2E_ARG(w, 0, a);
    E2E_ARG(w, 1, shared);
    E2E_ARG(w, 2, n);
    E2E_ARG(r, 0, shared);
    E2E_ARG(r, 1, b);
    E2E_ARG(r, 2, n);
    pair_of_tasks(env, q2, w, r);
    e2e_read(env, b, sizeof out, out);
    for (int i = 0; i < FENCED; i++)
        EXPECT(out[i] == in[i] * 5 + 1);
    release(w, r, a, shared, b, NULL);
}

static void structs_and_vectors(e2e_env *env, cl_program p, cl_command_queue q2)
{
    int keys[N], sums[N], n = N;
    float out[N];
    for (int i = 0; i < N; i++)
        keys[i] = (i * 37) % 1001 - 500;
    cl_mem k = e2e_buffer(env, sizeof keys, keys), o = e2e_filled_buffer(env, N, 0);
    cl_mem s = e2e_filled_buffer(env, N, 0);
    cl_kernel w = e2e_kernel(p, "pair_source"), r = e2e_kernel(p, "pair_sink");
    E2E_ARG(w, 0, k);
    E2E_ARG(w, 1, n);
    E2E_ARG(r, 0, o);
    E2E_ARG(r, 1, s);
    E2E_ARG(r, 2, n);
    pair_of_tasks(env, q2, w, r);
    e2e_read(env, o, sizeof out, out);
    e2e_read(env, s, sizeof sums, sums);
    for (int i = 0; i < N; i++) {
        EXPECT(out[i] == keys[i] * 0.5f + (float)keys[i]);
        short x = (short)i, y = (short)-i, z = (short)keys[i];
        EXPECT(sums[i] == x + y * 3 + z * 5 + 7);
    }
    release(w, r, k, o, s, NULL);
}

/* Elements wider than 64 bits: a float4, a 24-byte struct of mixed fields. */
static void wide_elements(e2e_env *env, cl_program p, cl_command_queue q2)
{
    enum { M = 256 };
    float in[4 * M], out[4 * M];
    long long mix[M];
    int n = M;
    for (int i = 0; i < 4 * M; i++)
        in[i] = (float)(i % 97) * 0.25f - 7.0f;
    cl_mem a = e2e_buffer(env, sizeof in, in), b = e2e_buffer(env, sizeof out, NULL);
    cl_mem m = e2e_buffer(env, sizeof mix, NULL);
    cl_kernel w = e2e_kernel(p, "wide_source"), r = e2e_kernel(p, "wide_sink");
    E2E_ARG(w, 0, a);
    E2E_ARG(w, 1, n);
    E2E_ARG(r, 0, b);
    E2E_ARG(r, 1, m);
    E2E_ARG(r, 2, n);
    pair_of_tasks(env, q2, w, r);
    e2e_read(env, b, sizeof out, out);
    e2e_read(env, m, sizeof mix, mix);
    for (int i = 0; i < 4 * M; i++)
        EXPECT(out[i] == in[i] * 2.0f + 1.0f);
    for (int i = 0; i < M; i++) {
        long long e = (long long)i << 40 | 5;
        EXPECT(mix[i] == i + (long long)in[4 * i + 1] * 10 + (short)(i * 3) * 100 +
                             (signed char)i * 1000 + e);
    }
    release(w, r, a, b, m, NULL);
}

static void lanes(e2e_env *env, cl_program p, cl_command_queue q2)
{
    unsigned in[N], out[N];
    int n = N;
    for (int i = 0; i < N; i++)
        in[i] = (unsigned)i * 2654435761u >> 8 & 0x7f7f7f7fu;
    cl_mem a = e2e_buffer(env, sizeof in, in), b = e2e_filled_buffer(env, N, 0);
    cl_kernel w = e2e_kernel(p, "fan_out"), r = e2e_kernel(p, "fan_in");
    E2E_ARG(w, 0, a);
    E2E_ARG(w, 1, n);
    E2E_ARG(r, 0, b);
    E2E_ARG(r, 1, n);
    pair_of_tasks(env, q2, w, r);
    e2e_read(env, b, sizeof out, out);
    for (int i = 0; i < N; i++) {
        unsigned x = 0;
        for (unsigned j = 0; j < 4; j++)
            x ^= (in[i] + j) << (8 * j);
        EXPECT(out[i] == x);
    }
    release(w, r, a, b, NULL);
}

/* An NDRange writer: its work-items write in work-item order (those whose value is
 * not a multiple of 3). */
static void ndrange_producer(e2e_env *env, cl_program p, cl_command_queue q2)
{
    int in[N], out[N], want[N], n = 0;
    for (int i = 0; i < N; i++) {
        in[i] = (i * 131) % 997;
        if (in[i] % 3 != 0)
            want[n++] = in[i] - i;
    }
    cl_mem a = e2e_buffer(env, sizeof in, in), b = e2e_filled_buffer(env, N, 0);
    cl_kernel w = e2e_kernel(p, "items"), r = e2e_kernel(p, "collect");
    E2E_ARG(w, 0, a);
    E2E_ARG(r, 0, b);
    E2E_ARG(r, 1, n);
    cl_event rev = start_task(q2, r), wev;
    size_t global = N, local = 100;
    CL_OK(clEnqueueNDRangeKernel(env->queue, w, 1, NULL, &global, &local, 0, NULL, &wev));
    EXPECT(finish(wev) == CL_COMPLETE);
    EXPECT(finish(rev) == CL_COMPLETE);
    e2e_read(env, b, sizeof out, out);
    for (int i = 0; i < n; i++)
        EXPECT(out[i] == want[i]);
    release(w, r, a, b, NULL);
}

/* Non-blocking both ways: every element arrives once, in order; the reader finds the
 * channel empty at times and the writer finds it full at times (it retries). */
static void non_blocking(e2e_env *env, cl_program p, cl_command_queue q2)
{
    enum { M = 300 };
    int in[M], out[M], tries = 0, misses = 0, n = M;
    for (int i = 0; i < M; i++)
        in[i] = i * i - 5000;
    cl_mem a = e2e_buffer(env, sizeof in, in), b = e2e_filled_buffer(env, M, 0);
    cl_mem t = e2e_filled_buffer(env, 1, 0), m = e2e_filled_buffer(env, 1, 0);
    cl_kernel w = e2e_kernel(p, "poll_writer"), r = e2e_kernel(p, "poll_reader");
    E2E_ARG(w, 0, a);
    E2E_ARG(w, 1, t);
    E2E_ARG(w, 2, n);
    E2E_ARG(r, 0, b);
    E2E_ARG(r, 1, m);
    E2E_ARG(r, 2, n);
    pair_of_tasks(env, q2, w, r);
    e2e_read(env, b, sizeof out, out);
    e2e_read(env, t, sizeof tries, &tries);
    e2e_read(env, m, sizeof misses, &misses);
    for (int i = 0; i < M; i++)
        EXPECT(out[i] == in[i]);
    printf("non-blocking: %d writes tried for %d elements, %d empty reads\n", tries, M, misses);
    EXPECT(tries >= M && misses > 0);
    release(w, r, a, b, t, m, NULL);
}

/* One after the other on one queue: what the writer leaves in a deep enough channel
 * waits there for the reader, as on a board; twice, the second time in two parts. */
static void kept_between_runs(e2e_env *env, cl_program p)
{
    enum { M = 12 };
    int out[M], n = M;
    cl_mem o = e2e_filled_buffer(env, M, -1);
    cl_kernel w = e2e_kernel(p, "keep_writer"), r = e2e_kernel(p, "keep_reader");
    E2E_ARG(w, 0, n);
    E2E_ARG(r, 0, o);
    E2E_ARG(r, 1, n);
    EXPECT(e2e_task(env, w) == CL_COMPLETE);
    EXPECT(e2e_task(env, r) == CL_COMPLETE);
    e2e_read(env, o, sizeof out, out);
    for (int i = 0; i < M; i++)
        EXPECT(out[i] == i * i);
    int half = M / 2;
    E2E_ARG(w, 0, n);
    E2E_ARG(r, 1, half);
    EXPECT(e2e_task(env, w) == CL_COMPLETE);
    EXPECT(e2e_task(env, r) == CL_COMPLETE);
    EXPECT(e2e_task(env, r) == CL_COMPLETE);
    e2e_read(env, o, sizeof out, out);
    for (int i = 0; i < half; i++)
        EXPECT(out[i] == (half + i) * (half + i));
    release(w, r, o, NULL);
}

/* An autorun kernel between two host kernels: it runs by itself, for ever, one element
 * per cycle once the stream flows; the host does not see it. */
static void autorun(e2e_env *env, cl_program p, cl_command_queue q2)
{
    int in[N], out[N], n = N;
    for (int i = 0; i < N; i++)
        in[i] = i * 13 - 4000;
    cl_mem a = e2e_buffer(env, sizeof in, in), b = e2e_filled_buffer(env, N, 0);
    cl_kernel w = e2e_kernel(p, "auto_feed"), r = e2e_kernel(p, "auto_drain");
    E2E_ARG(w, 0, a);
    E2E_ARG(w, 1, n);
    E2E_ARG(r, 0, b);
    E2E_ARG(r, 1, n);
    cl_event rev = start_task(q2, r), wev = start_task(env->queue, w);
    clWaitForEvents(1, &wev);
    cl_ulong t0, t1; /* the writer's queue profiles */
    CL_OK(clGetEventProfilingInfo(wev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL));
    CL_OK(clGetEventProfilingInfo(wev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL));
    EXPECT(finish(wev) == CL_COMPLETE);
    EXPECT(finish(rev) == CL_COMPLETE);
    e2e_read(env, b, sizeof out, out);
    for (int i = 0; i < N; i++)
        EXPECT(out[i] == in[i] * 2 + 1);
    printf("autorun: %d elements through it, the writer ran %.0f ns\n", N, (double)(t1 - t0));
    release(w, r, a, b, NULL);
    cl_int err;
    EXPECT(clCreateKernel(p, "doubler", &err) == NULL && err == CL_INVALID_KERNEL_NAME);
    char names[1024];
    CL_OK(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, sizeof names, names, NULL));
    EXPECT(!strstr(names, "doubler") && strstr(names, "auto_feed;auto_drain"));
    size_t count;
    CL_OK(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof count, &count, NULL));
    cl_kernel all[64];
    cl_uint made;
    CL_OK(clCreateKernelsInProgram(p, 64, all, &made));
    EXPECT(made == count);
    for (cl_uint i = 0; i < made; i++) {
        char name[64];
        CL_OK(clGetKernelInfo(all[i], CL_KERNEL_FUNCTION_NAME, sizeof name, name, NULL));
        EXPECT(strcmp(name, "doubler"));
        clReleaseKernel(all[i]);
    }
}

/* A pipe object for packets of `size` bytes. */
static cl_mem new_pipe(e2e_env *env, cl_uint size)
{
    cl_int err;
    cl_mem pipe = clCreatePipe(env->ctx, 0, size, 64, NULL, &err);
    CL_OK(err);
    return pipe;
}

/* NDRange kernels joined by a pipe with Intel's blocking attribute: the reader's
 * work-items get the writer's packets in work-item order. */
static void pipe_ndrange(e2e_env *env, cl_program p, cl_command_queue q2)
{
    int in[N], out[N];
    for (int i = 0; i < N; i++)
        in[i] = (i * 131) % 997 - 400;
    cl_mem a = e2e_buffer(env, sizeof in, in), b = e2e_filled_buffer(env, N, 0);
    cl_mem pipe = new_pipe(env, sizeof(int));
    cl_kernel w = e2e_kernel(p, "pipe_items"), r = e2e_kernel(p, "pipe_collect");
    E2E_ARG(w, 0, a);
    E2E_ARG(w, 1, pipe);
    E2E_ARG(r, 0, pipe);
    E2E_ARG(r, 1, b);
    pair_of_ndranges(env, q2, w, r, N, 100);
    e2e_read(env, b, sizeof out, out);
    for (int i = 0; i < N; i++)
        EXPECT(out[i] == in[i] * 3 + 1);
    release(w, r, a, b, pipe, NULL);
}

/* The standard non-blocking read_pipe and write_pipe, retried until they succeed:
 * every struct packet arrives once; get_pipe_num_packets stays within the FIFO's
 * default depth, which get_pipe_max_packets answers. */
static void pipe_non_blocking(e2e_env *env, cl_program p, cl_command_queue q2)
{
    enum { M = 400 };
    int in[M], full[M], empty[M], seen[M], retries = 0;
    float out[M];
    for (int i = 0; i < M; i++)
        in[i] = i * 37 - 2000;
    cl_mem a = e2e_buffer(env, sizeof in, in), o = e2e_filled_buffer(env, M, 0);
    cl_mem f = e2e_filled_buffer(env, M, -1), e = e2e_filled_buffer(env, M, -1);
    cl_mem s = e2e_filled_buffer(env, M, -1), pipe = new_pipe(env, 12);
    cl_kernel w = e2e_kernel(p, "packet_source"), r = e2e_kernel(p, "packet_sink");
    E2E_ARG(w, 0, a);
    E2E_ARG(w, 1, pipe);
    E2E_ARG(w, 2, f);
    E2E_ARG(r, 0, pipe);
    E2E_ARG(r, 1, o);
    E2E_ARG(r, 2, e);
    E2E_ARG(r, 3, s);
    pair_of_ndranges(env, q2, w, r, M, 50);
    e2e_read(env, o, sizeof out, out);
    e2e_read(env, f, sizeof full, full);
    e2e_read(env, e, sizeof empty, empty);
    e2e_read(env, s, sizeof seen, seen);
    for (int i = 0; i < M; i++) {
        EXPECT(out[i] == in[i] * 0.25f + (short)(in[i] & 0x7fff));
        EXPECT(full[i] >= 0 && empty[i] >= 0);
        EXPECT(seen[i] % 100 == 16 && seen[i] / 100 <= 16);
        retries += empty[i];
    }
    printf("pipe, non-blocking: %d empty reads retried\n", retries);
    EXPECT(retries > 0); /* the reader started first: it found the pipe empty */
    release(w, r, a, o, f, e, s, pipe, NULL);
}

/* A writer run alone fills the FIFO's depth (4) and then finds the pipe full; a reader
 * run after it gets those packets and then finds the pipe empty. */
static void pipe_alone(e2e_env *env, cl_program p)
{
    enum { M = 10 };
    int ok[M];
    unsigned out[M];
    cl_mem k = e2e_filled_buffer(env, M, 7), o = e2e_filled_buffer(env, M, 7);
    cl_mem pipe = new_pipe(env, sizeof(unsigned));
    cl_kernel w = e2e_kernel(p, "fill"), r = e2e_kernel(p, "drain");
    E2E_ARG(w, 0, pipe);
    E2E_ARG(w, 1, k);
    E2E_ARG(r, 0, pipe);
    E2E_ARG(r, 1, o);
    size_t global = M;
    EXPECT(e2e_run(env, w, 1, NULL, &global, NULL) == CL_COMPLETE);
    EXPECT(e2e_run(env, r, 1, NULL, &global, NULL) == CL_COMPLETE);
    e2e_read(env, k, sizeof ok, ok);
    e2e_read(env, o, sizeof out, out);
    for (int i = 0; i < M; i++) {
        EXPECT(ok[i] == (i < 4 ? 0 : -1));
        EXPECT(out[i] == (i < 4 ? (unsigned)i * 11 : 0xdeadu));
    }
    release(w, r, k, o, pipe, NULL);
}

/* clSetKernelArg takes a pipe of the argument's packet size for a pipe argument, and
 * nothing else; clGetKernelArgInfo says it is a pipe. */
static void pipe_arguments(e2e_env *env, cl_program p)
{
    cl_kernel w = e2e_kernel(p, "pipe_items");
    cl_mem buffer = e2e_filled_buffer(env, 4, 0), wide = new_pipe(env, 8);
    EXPECT(clSetKernelArg(w, 1, sizeof buffer, &buffer) == CL_INVALID_ARG_VALUE);
    EXPECT(clSetKernelArg(w, 1, sizeof wide, &wide) == CL_INVALID_ARG_VALUE);
    EXPECT(clSetKernelArg(w, 0, sizeof wide, &wide) == CL_INVALID_ARG_VALUE);
    cl_kernel_arg_type_qualifier q = 0;
    CL_OK(clGetKernelArgInfo(w, 1, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof q, &q, NULL));
    EXPECT(q & CL_KERNEL_ARG_TYPE_PIPE);
    clReleaseKernel(w);
    clReleaseMemObject(buffer);
    clReleaseMemObject(wide);
}

/* The context's notify callback: keeps the last message. */
static char notified[2048];
static void CL_CALLBACK notify(const char *msg, const void *info, size_t cb, void *user)
{
    (void)info, (void)cb, (void)user;
    snprintf(notified, sizeof notified, "%s", msg);
}

/* A reader whose writer never runs (kernels `reader` and `writer` of source, built with
 * options): the watchdog ends it with a negative status and a message naming the
 * channel, how full it is and the kernel that does not write it (`stuck`), and where
 * it waits (`where`); then the channel works again for a pair that does run. */
static void reader_alone(e2e_env *env, const char *source, const char *options,
                         const char *reader, const char *writer, const char *stuck,
                         const char *where)
{
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &env->device, notify, NULL, &err);
    CL_OK(err);
    e2e_env alone = *env;
    alone.ctx = ctx;
    alone.queue = clCreateCommandQueue(ctx, env->device, 0, &err);
    CL_OK(err);
    cl_command_queue q2 = second_queue(&alone);
    cl_program p = e2e_build(&alone, source, options, 1, NULL);
    cl_mem o = e2e_filled_buffer(&alone, 1, 0), pipe = NULL;
    cl_kernel r = e2e_kernel(p, reader), w = e2e_kernel(p, writer);
    cl_uint first = 0; /* a pipe is the first argument of both */
    if (options) {
        pipe = new_pipe(&alone, sizeof(int));
        E2E_ARG(r, 0, pipe);
        E2E_ARG(w, 0, pipe);
        first = 1;
    }
    E2E_ARG(r, first, o);
    EXPECT(e2e_task(&alone, r) < 0);
    char made_no_progress[160];
    snprintf(made_no_progress, sizeof made_no_progress,
             "kernel '%s' made no forward progress", reader);
    if (!strstr(notified, made_no_progress) || !strstr(notified, stuck) ||
        !strstr(notified, where)) {
        fprintf(stderr, "unexpected message: %s\n", notified);
        _Exit(1);
    }
    int x = 1234, got = 0;
    E2E_ARG(w, first, x);
    pair_of_tasks(&alone, q2, w, r);
    e2e_read(&alone, o, sizeof got, &got);
    EXPECT(got == x);
    release(w, r, o, pipe, NULL);
    clReleaseProgram(p);
    clReleaseCommandQueue(q2);
    clReleaseCommandQueue(alone.queue);
    clReleaseContext(ctx);
}

/* A program whose channel use the hardware cannot build: CL_BUILD_PROGRAM_FAILURE with
 * the log pointing at `where` and saying `what`. */
static void refused_with(e2e_env *env, const char *options, const char *source,
                         const char *where, const char *what)
{
    cl_int st;
    cl_program p = e2e_build(env, source, options, 0, &st);
    EXPECT(st == CL_BUILD_PROGRAM_FAILURE);
    char *log = e2e_build_log(env, p);
    if (!strstr(log, where) || !strstr(log, what)) {
        fprintf(stderr, "log without '%s' and '%s':\n%s\n", where, what, log);
        _Exit(1);
    }
    free(log);
    clReleaseProgram(p);
}

static void refused(e2e_env *env, const char *source, const char *where, const char *what)
{
    refused_with(env, NULL, source, where, what);
}

static void errors(e2e_env *env)
{
    refused(env,
            "#pragma OPENCL EXTENSION cl_intel_channels : enable\n"
            "channel int c[4];\n"
            "__kernel void w(int i) { write_channel_intel(c[i & 3], i); }\n"
            "__kernel void r(__global int *o) { o[0] = read_channel_intel(c[0]); }\n",
            ":3:", "the channel must be known when the kernel is built");
    refused(env,
            "#pragma OPENCL EXTENSION cl_intel_channels : enable\n"
            "channel int c;\n"
            "__kernel void w(int i) {\n"
            "    write_channel_intel(c, i);\n"
            "    write_channel_intel(c, i + 1);\n"
            "}\n"
            "__kernel void r(__global int *o) { o[0] = read_channel_intel(c); }\n",
            ":5:", "channel 'c' is already written at");
    refused(env,
            "#pragma OPENCL EXTENSION cl_intel_channels : enable\n"
            "channel long c;\n"
            "__kernel void r(__global long *o) { o[0] = read_channel_intel(c); }\n",
            ":3:", "no kernel of the program writes it");
    refused(env,
            "#pragma OPENCL EXTENSION cl_intel_channels : enable\n"
            "channel int c;\n"
            "__kernel void loop(__global int *o) {\n"
            "    write_channel_intel(c, 1);\n"
            "    o[0] = read_channel_intel(c);\n"
            "}\n",
            ":5:", "both reads and writes channel 'c'");
    refused(env,
            "#pragma OPENCL EXTENSION cl_intel_channels : enable\n"
            "channel int c __attribute__((depth(2 * 4)));\n"
            "__kernel void w(int i) { write_channel_intel(c, i); }\n"
            "__kernel void r(__global int *o) { o[0] = read_channel_intel(c); }\n",
            ":3:", "the depth of channel 'c' must be a number");
    refused(env,
            "#pragma OPENCL EXTENSION cl_intel_channels : enable\n"
            "typedef struct { int x[65]; } big;\n"
            "channel big c;\n"
            "__kernel void w(int i) { big b = {{i}}; write_channel_intel(c, b); }\n"
            "__kernel void r(__global int *o) { o[0] = read_channel_intel(c).x[0]; }\n",
            ":4:", "channels of more than 256 bytes are not supported yet");
    refused(env,
            "#pragma OPENCL EXTENSION cl_intel_channels : enable\n"
            "channel int c;\n"
            "__attribute__((autorun)) __kernel void a(void) { write_channel_intel(c, 1); }\n"
            "__kernel void r(__global int *o) { o[0] = read_channel_intel(c); }\n",
            ":3:", "autorun kernel 'a' must be a single work-item");
    refused(env,
            "#pragma OPENCL EXTENSION cl_intel_channels : enable\n"
            "channel int c;\n"
            "__attribute__((max_global_work_dim(0)))\n"
            "__attribute__((autorun)) __kernel void a(int x) { write_channel_intel(c, x); }\n"
            "__kernel void r(__global int *o) { o[0] = read_channel_intel(c); }\n",
            ":4:", "autorun kernel 'a' has arguments");
    const char *cl20 = "-cl-std=CL2.0";
    refused_with(env, cl20,
                 "__kernel void w(write_only pipe int p, int i) {\n"
                 "    reserve_id_t id = reserve_write_pipe(p, 2);\n"
                 "    write_pipe(p, id, 0, &i);\n"
                 "    commit_write_pipe(p, id);\n"
                 "}\n"
                 "__kernel void r(read_only pipe int p, __global int *o) { read_pipe(p, o); }\n",
                 ":2:", "pipe reservations");
    refused_with(env, cl20,
                 "__kernel void w(write_only pipe int lost, int i) { write_pipe(lost, &i); }\n"
                 "__kernel void r(read_only pipe int p, __global int *o) { read_pipe(p, o); }\n",
                 ":1:", "pipe 'lost' is written here but no kernel of the program reads it");
    refused_with(env, cl20,
                 "__kernel void w(write_only pipe int p, int i) { write_pipe(p, &i); }\n"
                 "__kernel void r(read_only pipe long p, __global long *o) { read_pipe(p, o); }\n",
                 ":2:", "pipe 'p' carries 8 bytes here but 4 bytes at");
    refused_with(env, cl20,
                 "__kernel void w(write_only pipe int __attribute__((depth(N))) p, int i) {\n"
                 "    write_pipe(p, &i);\n"
                 "}\n"
                 "__kernel void r(read_only pipe int p, __global int *o) { read_pipe(p, o); }\n",
                 ":1:", "the depth of pipe 'p' must be a positive number");
}

int main(void)
{
    e2e_env env;
    e2e_init(&env);
    cl_program p = e2e_build(&env, src, NULL, 1, NULL);
    cl_program pipes = e2e_build(&env, pipe_src, "-cl-std=CL2.0", 1, NULL);
    cl_command_queue q2 = second_queue(&env);
    for (int stress = 0; stress < 2; stress++) {
        if (stress) { /* the memory's timing changes; the results must not */
            setenv("CLHLS_SIM_STRESS", "20261129", 1);
            printf("-- again under CLHLS_SIM_STRESS=20261129 --\n");
        }
        stream(&env, p, q2);
        fenced(&env, p, q2);
        structs_and_vectors(&env, p, q2);
        wide_elements(&env, p, q2);
        lanes(&env, p, q2);
        ndrange_producer(&env, p, q2);
        non_blocking(&env, p, q2);
        kept_between_runs(&env, p);
        autorun(&env, p, q2);
        pipe_ndrange(&env, pipes, q2);
        pipe_non_blocking(&env, pipes, q2);
        pipe_alone(&env, pipes);
    }
    pipe_arguments(&env, pipes);
    unsetenv("CLHLS_SIM_STRESS");
    reader_alone(&env, src, NULL, "idle_reader", "idle_writer",
                 "channel 'c_idle' (written by kernel 'idle_writer'): 0 of 2, and kernel "
                 "'idle_writer' is not running", "read of channel 'c_idle' at");
    reader_alone(&env, pipe_src, "-cl-std=CL2.0", "lonely_reader", "lonely_writer",
                 "pipe 'quiet' (written by kernel 'lonely_writer'): 0 of 16, and kernel "
                 "'lonely_writer' is not running", "read of pipe 'quiet' at");
    errors(&env);
    clReleaseCommandQueue(q2);
    clReleaseProgram(pipes);
    clReleaseProgram(p);
    e2e_fini(&env);
    printf("channels and pipes: all passed\n");
    return 0;
}
