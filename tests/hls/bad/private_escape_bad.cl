// expect: private_escape_bad.cl:11:22: error: a private array indexed at run time can only be read and written here (its address may not be stored, passed on, compared or converted to an integer)
// A pointer variable over a private array, compared with an element's address. Its
// phi has no source location: the error is at the comparison.
__kernel void compare(__global const int *in, __global int *out, int n)
{
    int a[8];
    for (int j = 0; j < 8; j++)
        a[j] = in[j];
    int *p = a, s = 0;
    for (int j = 0; j < n; j++) {
        s += (int)(p == &a[3]);
        p += in[j] & 1;
    }
    out[get_global_id(0)] = s + a[in[n] & 7];
}
