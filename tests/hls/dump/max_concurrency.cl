// PASS: schedule
// #pragma max_concurrency N (Intel): the loop keeps at most N iterations in flight
// (pragmas.c carries N to the loop as clang's interleave_count); the loop after it,
// without the pragma, has no bound.
// CHECK: kernel bounded
// CHECK: pipelined, II 1, {{.*}}, at most 2 in flight) #pragma max_concurrency 2
// CHECK: loop at line 13 (header {{.*}}pipelined, II 1, latency {{.*}}) phis
__kernel void bounded(__global int *restrict a, __global int *restrict b, int n)
{
#pragma max_concurrency 2
    for (int i = 0; i < n; i++)
        a[i] = b[i] + 1;
    for (int i = 0; i < n; i++)
        b[i] = a[i] + 1;
}
