// PASS: schedule
// A data-dependent loop after a stall-free cluster (no load-store unit, exit FIFO of
// its stages + 2): loop region, active flag and induction variables as header phis,
// the body's load, credits >= latency, back-edge FIFO = credits (64-cycle memory + 4).
__kernel void rowsum(__global const int *a, __global int *c, int n)
{
    int i = get_global_id(0);
    int s = 0;
    for (int j = 0; j < n; j++)
        s += a[i * n + j];
    c[i] = s;
}
// CHECK: region 1: static (depth 3, stall-free, exit fifo 6)
// CHECK: region 2: loop at line 9 (header b2, latch b2; latency 74, credits 76, back-edge fifo 76) phis {
// CHECK: region 3: static (depth 71)
// CHECK: = load i32
// CHECK: region 4: static
// CHECK: = store i32
