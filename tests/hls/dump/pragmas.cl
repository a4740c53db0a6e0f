// PASS: schedule
// Loop pragmas of single work-item kernels in the vendors' spellings (pragmas.c turns
// them into clang's loop hints): #pragma ivdep pipelines an indirect update (accesses
// marked with the loop's ivdep bit; without it, a window), safelen(8) bounds the
// iterations in flight, #pragma ii 3 and xcl_pipeline_loop(2) slow a streaming loop to
// an iteration every 3 (2) cycles, #pragma disable_loop_pipelining keeps a loop serial,
// and #pragma ii 1 on an in-order float sum leaves it at the adder's II (test_hls).
// CHECK: kernel scatter
// CHECK: pipelined, II 1, {{.*}} #pragma ivdep (1)
// CHECK: load i32 {{.*}} ivdep 0x1
// CHECK: store i32 {{.*}} ivdep 0x1
// CHECK: kernel scatter_plain
// CHECK: pipelined, II 143, {{.*}} window 7..9: the load at {{.*}}:36 may read what the store at {{.*}}:36 wrote in an earlier iteration
// CHECK: kernel slow
// CHECK: pipelined, II 3, {{.*}} #pragma ii 3
// CHECK: static (depth 2, stall-free, exit fifo 5, II 3)
// CHECK: kernel slow_xcl
// CHECK: pipelined, II 2, {{.*}} #pragma ii 2
// CHECK: kernel off
// CHECK: #pragma disable_loop_pipelining {{.*}} serial: #pragma disable_loop_pipelining at {{.*}}:52
// CHECK: kernel fsum
// CHECK: pipelined, II 5, {{.*}} #pragma ii 1
// CHECK: kernel safe
// CHECK: pipelined, II 1, {{.*}}, at most 8 in flight) #pragma ivdep
__kernel void scatter(__global int *restrict a, __global const int *restrict idx,
                      __global const int *restrict b, int n)
{
#pragma ivdep
    for (int i = 0; i < n; i++)
        a[idx[i]] += b[i];
}
__kernel void scatter_plain(__global int *restrict a, __global const int *restrict idx,
                            __global const int *restrict b, int n)
{
    for (int i = 0; i < n; i++)
        a[idx[i]] += b[i];
}
__kernel void slow(__global const float *restrict a, __global float *restrict c, int n)
{
    #pragma ii 3
    for (int i = 0; i < n; i++)
        c[i] = a[i] * 2.0f;
}
__kernel void slow_xcl(__global const float *restrict a, __global float *restrict c, int n)
{
    __attribute__((xcl_pipeline_loop(2)))
    for (int i = 0; i < n; i++)
        c[i] = a[i] * 2.0f;
}
__kernel void off(__global const float *restrict a, __global float *restrict c, int n)
{
#pragma disable_loop_pipelining
    for (int i = 0; i < n; i++)
        c[i] = a[i] * 2.0f;
}
__kernel void fsum(__global const float *restrict a, __global float *restrict out, int n)
{
    float s = 0.0f;
#pragma ii 1
    for (int i = 0; i < n; i++)
        s += a[i];
    out[0] = s;
}
__kernel void safe(__global int *restrict a, int n)
{
#pragma ivdep safelen(8)
    for (int i = 0; i < n; i++)
        a[i + 8] = a[i] * 3 + 1;
}
