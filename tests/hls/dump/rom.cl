// PASS: schedule
// A program-scope __constant table read with a computed index is a ROM inside the
// compute unit: no load-store unit, one cycle.
__constant int lut[8] = {3, 1, 4, 1, 5, 9, 2, 6};
__kernel void table(__global const int *a, __global int *c)
{
    int i = get_global_id(0);
    c[i] = lut[a[i] & 7];
}
// CHECK: kernel table (2 args, 2 load-store units
// CHECK: = load i32 %{{.*}} [lsu 0, addrspace 1]
// CHECK: = load i32 %{{.*}} [rom 0]  @70+1
// CHECK: = store i32
