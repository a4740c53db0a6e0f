// expect: private_large_bad.cl:8:16: error: a private array of 1024 bytes indexed at run time is too large to keep in registers (at most 256 bytes); use __local or __global memory
// A private array indexed at run time travels with its work-item as registers.
__kernel void big(__global const int *in, __global int *out)
{
    float acc[256];
    int i = get_global_id(0);
    for (int k = 0; k < 256; k++)
        acc[k] = 0.0f;
    for (int k = 0; k < 64; k++)
        acc[in[k] & 255] += 1.0f;
    out[i] = acc[in[i] & 255];
}
