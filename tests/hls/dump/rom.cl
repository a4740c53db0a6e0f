// PASS: schedule
// A program-scope __constant table read with a computed index is a ROM inside the
// compute unit: no load-store unit, one cycle, read inside the static region after the
// memory node that loads the index.
__constant int lut[8] = {3, 1, 4, 1, 5, 9, 2, 6};
__kernel void table(__global const int *a, __global int *c)
{
    int i = get_global_id(0);
    c[i] = lut[a[i] & 7];
}
// CHECK: kernel table (2 args, 2 load-store units
// CHECK: memory (token fifo
// CHECK: = load i32 %{{.*}} [lsu 0, addrspace 1]
// CHECK: static (depth 2, stall-free
// CHECK: = load i32 %{{.*}} [rom 0]  @1+1
// CHECK: memory (token fifo
// CHECK: = store i32
