// expect: async_bad.cl:5:5: error: OpenCL builtin 'async_work_group_copy' is not supported yet
__kernel void copy(__global const int *g, __global int *out)
{
    __local int t[64];
    async_work_group_copy(t, g, 64, 0);
    out[get_global_id(0)] = t[get_local_id(0)];
}
