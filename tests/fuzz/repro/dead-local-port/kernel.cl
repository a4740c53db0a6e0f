__kernel void dead_local(__global int *out)
{
    __local int t[64];
    int l = get_local_id(0);
    t[l] = l;
    barrier(CLK_LOCAL_MEM_FENCE);
    int v = t[63 - l];
    if ((get_group_id(0) & 1) == 0)
        v = work_group_broadcast(v, 0);
    out[get_global_id(0)] = l;
}
