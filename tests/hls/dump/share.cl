// PASS: banks
// Accesses of one local memory share a port when no work-group runs two of them
// (localbanks.c): the three sides of an if/else-if/else on the group's id, each
// writing and reading t around a barrier, need two ports for six accesses. The same
// branch on the local id (work-items of one group take different sides) and on a
// value read from memory (not known to be the same for the whole group) share none.
__kernel void group_sides(__global int *out)
{
    __local int t[64];
    int lid = get_local_id(0), g = get_group_id(0);
    if (g == 0) {
        t[lid] = lid;
        barrier(CLK_LOCAL_MEM_FENCE);
        out[get_global_id(0)] = t[63 - lid];
    } else if (g == 1) {
        t[lid] = 2 * lid;
        barrier(CLK_LOCAL_MEM_FENCE);
        out[get_global_id(0)] = t[62 - lid];
    } else {
        t[lid] = 3 * lid;
        barrier(CLK_LOCAL_MEM_FENCE);
        out[get_global_id(0)] = t[61 - lid];
    }
}
__kernel void item_sides(__global int *out)
{
    __local int t[64];
    int lid = get_local_id(0);
    if (lid < 4)
        t[lid] = lid;
    else
        t[lid] = 2 * lid;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < 8)
        out[get_global_id(0)] = t[63 - lid];
    else
        out[get_global_id(0)] = t[lid - 8];
}
__kernel void loaded_sides(__global int *out, __global const int *sel)
{
    __local int t[64];
    int lid = get_local_id(0);
    if (sel[get_group_id(0)])
        t[lid] = lid;
    else
        t[lid] = 2 * lid;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = t[63 - lid];
}
// CHECK: kernel group_sides
// CHECK: local t: 2 ports for 6 accesses
// CHECK: store {{.*}}[local t port 0 shared with %{{.*}} %{{.*}}, acknowledged]
// CHECK: load {{.*}}[local t port 1 shared with %{{.*}} %{{.*}}]
// CHECK: store {{.*}}[local t port 0 shared with
// CHECK: load {{.*}}[local t port 1 shared with
// CHECK: store {{.*}}[local t port 0 shared with
// CHECK: load {{.*}}[local t port 1 shared with
// CHECK: kernel item_sides
// CHECK: local t: 4 ports, 4 banks
// CHECK: [local t port 0, acknowledged]
// CHECK: [local t port 1, acknowledged]
// CHECK: [local t port 2]
// CHECK: [local t port 3]
// CHECK: kernel loaded_sides
// CHECK: local t: 3 ports, 4 banks
// CHECK: [local t port 0, acknowledged]
// CHECK: [local t port 1, acknowledged]
