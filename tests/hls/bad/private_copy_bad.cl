// expect: private_copy_bad.cl:7:22: error: a copy of a run-time length to or from a private variable is not supported yet; copy it element by element
/* A private array lives in registers of its elements; a copy of a length known only
 * at run time would move bytes at run-time offsets of it. */
__kernel void k(__global const int *in, __global int *out, int n)
{
    int t[8];
    __builtin_memcpy(t, in, n);
    out[get_global_id(0)] = t[in[9] & 7];
}
