// PASS: ifconvert
// if/else merging one value: the phi becomes a select on the edge predicate.
__kernel void pick(__global const int *a, __global int *c)
{
    int i = get_global_id(0);
    int x = a[i];
    int y;
    if (x > 10)
        y = x * 3;
    else
        y = x - 7;
    c[i] = y;
}
// CHECK: region 1: static
// CHECK: = mul i32
// CHECK: = select i32
// CHECK: = store i32
