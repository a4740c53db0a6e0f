// PASS: nodes
// Memory accesses leave the static regions for memory nodes (memnodes.c). Two loads
// whose addresses are ready together issue from one node; a load whose address is a
// loaded value (a gather) goes into the next node; a store that memorder.c made wait
// for an earlier load of the same buffer goes into a node after that load's; local
// accesses are nodes too; a table in ROM stays in its static region.
__kernel void pair(__global const float *a, __global const float *b, __global float *c)
{
    int i = get_global_id(0);
    c[i] = a[i] * b[i];
}
__kernel void gather(__global const int *index, __global const int *data, __global int *out)
{
    int i = get_global_id(0);
    out[i] = data[index[i]];
}
__kernel void in_place(__global int *a)
{
    int i = get_global_id(0);
    a[i] = a[i] + 1;
}
__kernel void local_swap(__global int *out)
{
    __local int t[64];
    int lid = get_local_id(0);
    t[lid] = lid;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = t[63 - lid];
}
// CHECK: kernel pair
// CHECK:     region 1: static
// CHECK:     region 2: memory
// CHECK: = load i32 %{{.*}} [lsu 0, addrspace 1]
// CHECK: = load i32 %{{.*}} [lsu 1, addrspace 1]
// CHECK:     region 3: static
// CHECK: = fmul
// CHECK:     region 4: memory
// CHECK: = store i32 %{{.*}} [lsu 2, addrspace 1]
// CHECK: kernel gather
// CHECK:     region 2: memory
// CHECK: = load i32 %{{.*}} [lsu 0, addrspace 1]
// CHECK:     region 3: static
// CHECK:     region 4: memory
// CHECK: = load i32 %{{.*}} [lsu 1, addrspace 1]
// CHECK:     region 5: memory
// CHECK: = store i32 %{{.*}} [lsu 2, addrspace 1]
// CHECK: kernel in_place
// CHECK:     region 2: memory
// CHECK: = load i32 %{{.*}} [lsu 0, addrspace 1]
// CHECK:     region 3: static
// CHECK:     region 4: memory
// CHECK: = store i32 %{{.*}} [lsu 1, addrspace 1]
// CHECK: kernel local_swap
// CHECK: memory
// CHECK: = store i32 %{{.*}} [local t port 0
// CHECK: barrier
// CHECK: memory
// CHECK: = load i32 %{{.*}} [local t port 1
// CHECK: memory
// CHECK: = store i32 %{{.*}} [lsu 0, addrspace 1]
