// PASS: schedule
// A data-dependent loop after a stall-free cluster (exit FIFO of its stages + 2): loop
// region, active flag and induction variables as header phis, the body's load in a
// memory node between two static regions (its token FIFO as deep as the load-store
// unit's capacity, 2 x (64-cycle memory + 4) rounded up to a power of two), credits >=
// latency, back-edge FIFO = credits.
__kernel void rowsum(__global const int *a, __global int *c, int n)
{
    int i = get_global_id(0);
    int s = 0;
    for (int j = 0; j < n; j++)
        s += a[i * n + j];
    c[i] = s;
}
// CHECK: region 1: static (depth 3, stall-free, exit fifo 6)
// CHECK: region 2: loop at line 11 (header b2, latch b2; latency 79, credits 81, back-edge fifo 81) phis {
// CHECK: region 3: static (depth 2, stall-free, exit fifo 5)
// CHECK: region 5: memory (token fifo 256)
// CHECK: = load i32
// CHECK: region 6: static (depth 1)
// CHECK: = add i32
// CHECK: region 4: static
// CHECK: region 7: memory (token fifo 256)
// CHECK: = store i32
