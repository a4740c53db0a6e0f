// expect: recursion_bad.cl:9:27: error: recursive call to 'fact' cannot be implemented in hardware
int fact(int n)
{
    return n <= 1 ? 1 : n * fact(n - 1);
}

__kernel void factorial(__global int *c)
{
    c[get_global_id(0)] = fact(c[get_global_id(0)]);
}
