// expect: private_escape_bad.cl:8:14: error: a private array indexed at run time can only be read and written element by element here
// A pointer variable that moves over a private array (here chosen at run time).
__kernel void walk(__global const int *in, __global int *out)
{
    int a[8], b[8];
    int i = get_global_id(0);
    for (int k = 0; k < 8; k++) { a[k] = in[k]; b[k] = in[k + 8]; }
    int *p = in[i] ? a : b;
    out[i] = p[in[i + 1] & 7];
}
