// expect: builtin_bad.cl:5:12: error: OpenCL builtin 'tgamma' is not supported yet
__kernel void gamma(__global const float *a, __global float *c)
{
    size_t i = get_global_id(0);
    c[i] = tgamma(a[i]);
}
