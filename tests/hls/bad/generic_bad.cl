// expect: generic_bad.cl:10:27: error: loading through a generic pointer whose memory (global, local or private) the compiler cannot tell
// options: -cl-std=CL2.0
__kernel void pick(__global const int *a, __global int *c, int which)
{
    __local int t[64];
    size_t l = get_local_id(0);
    t[l] = a[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    const int *p = which ? (const int *)a : (const int *)t;
    c[get_global_id(0)] = p[63 - l];
}
