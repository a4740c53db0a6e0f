// expect: printf_format_bad.cl:5:5: error: printf: the format must be a string literal
__kernel void say(__global const int *a, int loud)
{
    size_t i = get_global_id(0);
    printf(loud ? "%d!\n" : "%d\n", a[i]);
}
