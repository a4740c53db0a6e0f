// PASS: schedule
// Loops of single work-item kernels: streaming at II 1 (the induction variable a
// recurrence of one stage, the accesses masked by the alive flag), an in-order float
// sum at the adder's latency, a shift register of partial sums at II 1, a stencil
// whose window computation moves after the load it waits for, a histogram (a window:
// one at a time from load to store), a search whose exit test waits for its load
// (speculative), and the loops that stay serial, with the reason.
// CHECK: kernel vadd
// CHECK: loop at line {{.*}}pipelined, II 1,
// CHECK: recur i32
// CHECK: alive i1
// CHECK: load i32 {{.*}}, if %
// CHECK: kernel fsum
// CHECK: pipelined, II 5,
// CHECK: static (depth 5, stall-free, exit fifo 8, II 5)
// CHECK: recur i32
// CHECK: fadd i32
// CHECK: kernel fsum_shift
// CHECK: loop at line 50 {{.*}}pipelined, II 1,
// CHECK: kernel stencil
// CHECK: pipelined, II 1,
// CHECK: kernel histogram
// CHECK: window {{.*}}: the load at {{.*}}:70 may read what the store at {{.*}}:70 wrote in an earlier iteration
// CHECK: kernel search
// CHECK: pipelined, II 1, latency {{.*}}, speculative)
// CHECK: load i32 {{.*}}speculative]
// CHECK: alive i1
// CHECK: kernel search_copy
// CHECK: pipelined, II 1, latency {{.*}}, speculative)
// CHECK: kernel ndrange
// CHECK: loop at line {{.*}}latency {{.*}}credits
__kernel void vadd(__global const float *restrict a, __global const float *restrict b,
                   __global float *restrict c, int n)
{
    for (int i = 0; i < n; i++)
        c[i] = a[i] + b[i];
}
__kernel void fsum(__global const float *restrict a, __global float *restrict out, int n)
{
    float s = 0.0f;
    for (int i = 0; i < n; i++)
        s += a[i];
    out[0] = s;
}
__kernel void fsum_shift(__global const float *restrict a, __global float *restrict out, int n)
{
    float part[9];
    for (int j = 0; j < 9; j++)
        part[j] = 0.0f;
    for (int i = 0; i < n; i++) {
        part[8] = part[0] + a[i];
        for (int j = 0; j < 8; j++)
            part[j] = part[j + 1];
    }
    out[0] = part[0] + part[1] + part[2] + part[3] + part[4] + part[5] + part[6] + part[7];
}
__kernel void stencil(__global const int *restrict a, __global int *restrict out, int n)
{
    int w0 = 0, w1 = a[0];
    for (int i = 0; i < n; i++) {
        int w2 = i + 1 < n ? a[i + 1] : 0;
        out[i] = w0 + 2 * w1 + w2;
        w0 = w1;
        w1 = w2;
    }
}
__kernel void histogram(__global const uchar *restrict x, __global int *restrict h, int n)
{
    for (int i = 0; i < n; i++)
        h[x[i]]++;
}
__kernel void search(__global const int *restrict a, __global int *restrict out, int key)
{
    int i = 0;
    while (a[i] != key)
        i++;
    out[0] = i;
}
__kernel void search_copy(__global const int *restrict a, __global int *restrict b, int key)
{
    int i = 0;
    while (a[i] != key) {
        b[i] = a[i];
        i++;
    }
}
__kernel void ndrange(__global float *restrict a, int n)
{
    float s = 0.0f;
    for (int i = 0; i < n; i++)
        s += a[get_global_id(0) * n + i];
    a[get_global_id(0)] = s;
}
