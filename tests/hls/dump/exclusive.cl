// PASS: memorder
// "sides": stores on the two sides of a branch never both run for one work-item, so
// neither is acknowledged: both stay coalescing stores. "then_after": the store after
// the branch may overwrite the one inside it, which is therefore acknowledged.
__kernel void sides(__global const int *in, __global int *out)
{
    int x = get_global_id(0);
    int v = in[x];
    if (v > 0)
        out[2 * x] = v;
    else
        out[3 * x + 1] = -v;
}
__kernel void then_after(__global const int *in, __global int *out)
{
    int x = get_global_id(0);
    int v = in[x];
    if (v > 0)
        out[2 * x] = v;
    out[x] = 7;
}
// CHECK: kernel sides
// CHECK: = store i32 {{.*}} addrspace 1]{{.*}}; line 12
// CHECK: = store i32 {{.*}} addrspace 1]{{.*}}; line 10
// CHECK: kernel then_after
// CHECK: = store i32 {{.*}} addrspace 1, acknowledged]{{.*}}; line 19
// CHECK: = store i32 {{.*}} addrspace 1]{{.*}}; line 20
