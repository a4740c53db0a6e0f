// expect: local_bad.cl:10:27: error: cannot tell which __local array this access uses (a pointer chosen at run time); index the array itself instead
__kernel void pick(__global const float *a, __global float *c, int which)
{
    __local float t[64], u[64];
    size_t l = get_local_id(0);
    t[l] = a[get_global_id(0)];
    u[l] = -a[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    __local float *p = which ? t : u;
    c[get_global_id(0)] = p[63 - l];
}
