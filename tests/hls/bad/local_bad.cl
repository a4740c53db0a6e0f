// expect: local_bad.cl:6:5: error: __local arrays are not supported yet
__kernel void tile(__global const float *a, __global float *c)
{
    __local float t[64];
    size_t l = get_local_id(0);
    t[l] = a[get_global_id(0)];
    c[get_global_id(0)] = t[63 - l];
}
