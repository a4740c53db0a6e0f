// expect: builtin_bad.cl:5:5: error: OpenCL builtin 'printf' is not supported yet
__kernel void say(__global const int *a)
{
    size_t i = get_global_id(0);
    printf("%d\n", a[i]);
}
