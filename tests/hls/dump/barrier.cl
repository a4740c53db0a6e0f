// PASS: schedule
// A tree reduction: the work-group slot enters with the work-item and stays to the
// end (retiring work-items free their slot); the first barrier is a region of its
// own; the loop holds a barrier, so its credits cover every work-item of the
// work-groups in flight (4 slots of 1024) on top of its latency; every local store
// is acknowledged, and local accesses have a port each.
__kernel void sum(__global const int *in, __global int *out)
{
    __local int s[256];
    int l = get_local_id(0);
    s[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int d = get_local_size(0) / 2; d > 0; d >>= 1) {
        if (l < d)
            s[l] += s[l + d];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0)
        out[get_group_id(0)] = s[0];
}
// CHECK: kernel sum
// CHECK: = token i2 slot(0)
// CHECK: = store i32 {{.*}} [local s port 0, acknowledged]
// CHECK: region 2: barrier in {{{.*}}} out {
// CHECK: = barrier i1 {{.*}} fence 1  ; line 12
// CHECK: region 4: loop at line 13 {{.*}} credits {{.*}} barriers hold 4096)
// CHECK: [local s port 1]
// CHECK: [local s port 3, acknowledged]
// CHECK: : barrier in
// CHECK: = barrier i1 {{.*}} fence 1  ; line 16
// CHECK: [local s port 4]
