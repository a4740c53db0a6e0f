// expect: printf_string_bad.cl:6:5: error: printf: the argument of %s must be a string literal
__kernel void say(__global const int *a, int loud)
{
    size_t i = get_global_id(0);
    __constant char *word = a[i] ? "yes" : "no";
    printf("%s\n", word);
}
