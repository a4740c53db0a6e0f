// PASS: ifconvert
// A bounds check is if-converted: one static region, the load and the store take the
// comparison as their predicate, and nothing branches.
__kernel void guard(__global const int *a, __global int *c, int n)
{
    int i = get_global_id(0);
    if (i < n)
        c[i] = a[i] + 1;
}
// CHECK: kernel guard (3 args, 2 load-store units, 3 blocks, 0 loops)
// CHECK: region 0: body
// CHECK: region 1: static
// CHECK: = icmp i1 pred40
// CHECK: = load i32 %{{.*}}, if %
// CHECK: = store i32
