// expect: builtin_bad.cl:5:5: error: OpenCL builtin 'prefetch' is not supported yet
__kernel void say(__global const int *a)
{
    size_t i = get_global_id(0);
    prefetch(a + i, 1);
}
