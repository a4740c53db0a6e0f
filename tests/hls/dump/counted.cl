// PASS: schedule
// Counted loops: the exit test compares an induction variable (or its next value) with
// a value from before the loop, so the generator tells the last iteration as it issues
// it. In a nest whose outer induction variable steps after the inner loop, that next
// value moves before the inner loop, so the outer loop is pipelined too; a test on a
// sum is not counted.
// CHECK: kernel rows
// CHECK: loop at line 14 {{.*}}pipelined, II 1, latency {{.*}}, counted)
// CHECK: loop at line 15 {{.*}}pipelined, II 1, latency {{.*}}, counted)
// CHECK: kernel until
// CHECK: loop at line 21 {{.*}}pipelined, II 1, latency {{.*}}, uncounted)
__kernel void rows(__global const int *restrict a, __global int *restrict c, int m)
{
    for (int r = 0; r < 4096; r++)
        for (int k = 0; k < m; k++)
            c[r * m + k] = a[r * m + k] + 1;
}
__kernel void until(__global int *restrict out, int limit)
{
    int s = 0, i = 0;
    for (; s < limit; i++)
        s += i * 3;
    out[0] = i;
}
