// expect: builtin_bad.cl:5:12: error: OpenCL builtin 'sqrt' is not supported yet
__kernel void root(__global const float *a, __global float *c)
{
    size_t i = get_global_id(0);
    c[i] = sqrt(a[i]);
}
