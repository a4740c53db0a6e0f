// PASS: widen
// Wide accesses (widen.c). Unrolled by 4, the four loads of a[i] ... a[i + 3] are one
// 128-bit load (the load-store vectorizer already merges them); unrolled by 16, the
// sixteen loads of each array and the sixteen stores are one 512-bit access each, a
// whole port word, and the remainder loop keeps its 32-bit accesses. Loads that start
// one element past a 64-byte boundary (b[i + 1] ... b[i + 16]) become only accesses
// that no line boundary cuts: 32, 64, 128 and 256 bits, then 32. Two int4 loads next
// to each other are one 256-bit load, unless a store that may touch their bytes comes
// between them.
__kernel void unroll4(__global const int *restrict a, __global int *restrict c, int n)
{
    #pragma unroll 4
    for (int i = 0; i < n; i++)
        c[i] = a[i] * 3;
}

__kernel void unroll16(__global const int *restrict a, __global const int *restrict b,
                       __global int *restrict c, int n)
{
    #pragma unroll 16
    for (int i = 0; i < n; i++)
        c[i] = a[i] + b[i];
}

__kernel void straddle(__global const int *restrict b, __global int *restrict c, int n)
{
    #pragma unroll 16
    for (int i = 0; i < n; i++)
        c[i] = b[i + 1];
}

__kernel void pair(__global const int4 *restrict p, __global int *restrict q)
{
    size_t i = get_global_id(0);
    int4 x = p[2 * i];
    q[i] = x.s0;
    int4 y = p[2 * i + 1];
    q[i + 4096] = x.s1 + y.s2;
}

__kernel void between(__global const int4 *p, __global int *q)
{
    size_t i = get_global_id(0);
    int4 x = p[2 * i];
    q[i] = x.s0;
    int4 y = p[2 * i + 1];
    q[i + 4096] = x.s1 + y.s2;
}
// CHECK: kernel unroll4 (3 args, 4 load-store units
// CHECK: = load i128 %{{.*}} [lsu 0, addrspace 1]
// CHECK: = store i128 %{{.*}} [lsu 1, addrspace 1]
// CHECK: = load i32 %{{.*}} [lsu 2, addrspace 1]
// CHECK: = store i32 %{{.*}} [lsu 3, addrspace 1]
// CHECK: kernel unroll16 (4 args, 6 load-store units
// CHECK: = load i512 %{{.*}} [lsu 0, addrspace 1]
// CHECK: = extract i128
// CHECK: = load i512 %{{.*}} [lsu 1, addrspace 1]
// CHECK: = insert i512
// CHECK: = store i512 %{{.*}} [lsu 2, addrspace 1]
// CHECK: = load i32 %{{.*}} [lsu 3, addrspace 1]
// CHECK: kernel straddle (3 args, 8 load-store units
// CHECK: = load i32 %{{.*}} [lsu 0, addrspace 1]
// CHECK: = load i64 %{{.*}} [lsu 1, addrspace 1]
// CHECK: = load i128 %{{.*}} [lsu 2, addrspace 1]
// CHECK: = load i256 %{{.*}} [lsu 3, addrspace 1]
// CHECK: = load i32 %{{.*}} [lsu 4, addrspace 1]
// CHECK: = store i512
// CHECK: kernel pair (2 args, 3 load-store units
// CHECK: = load i256 %{{.*}} [lsu 0, addrspace 1]
// CHECK: kernel between (2 args, 4 load-store units
// CHECK: = load i128 %{{.*}} [lsu 0, addrspace 1]
// CHECK: = store i32
// CHECK: = load i128 %{{.*}} [lsu 2, addrspace 1]
