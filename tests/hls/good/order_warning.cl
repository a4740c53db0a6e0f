// "order" gets a warning: its load may read what its own earlier store wrote.
// "fine" does not: restrict pointers never overlap.
__kernel void order(__global int *a, __global int *b)
{
    size_t i = get_global_id(0);
    a[i] = 1;
    b[i] = a[i + 1] + 2;
}
__kernel void fine(__global int *restrict a, __global const int *restrict b)
{
    size_t i = get_global_id(0);
    a[i] = 1;
    a[i + 1] = b[i] + 2;
}
