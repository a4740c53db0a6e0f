// expect: division_bad.cl:5:17: error: floating-point division is not supported yet
__kernel void divide(__global const float *a, __global const float *b, __global float *c)
{
    size_t i = get_global_id(0);
    c[i] = a[i] / b[i];
}
