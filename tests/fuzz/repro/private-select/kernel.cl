__kernel void pick(__global const uint *in, __global uint *out)
{
    uint i = get_global_id(0);
    ushort a[8];
    for (int j = 0; j < 8; j++)
        a[j] = (ushort)in[i * 8 + j];
    a[in[i + 2] & 7u] = 7;
    out[i] = in[i] > 5u ? a[in[i + 1] & 7u] : a[0];
}
