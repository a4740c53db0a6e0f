// expect: division_bad.cl:5:17: error: integer division is not supported yet
__kernel void divide(__global const int *a, __global const int *b, __global int *c)
{
    size_t i = get_global_id(0);
    c[i] = a[i] / b[i];
}
