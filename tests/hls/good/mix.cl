// Straight-line kernels covering the operations the compiler supports.
__kernel void saxpy(__global const float *x, __global float *y, float a)
{
    size_t i = get_global_id(0);
    y[i] = a * x[i] + y[i];
}

__kernel __attribute__((reqd_work_group_size(8, 4, 1)))
void mix(__global const int *a, __global const uchar *b, __global short *s,
         __global long *l, __global uint *u, __global float *f, int k)
{
    size_t i = get_global_id(0) + get_global_size(0) * get_global_id(1);
    int x = a[i];
    int y = b[i];
    s[i] = (short)(x * y - (x >> 3) + (y << 2));
    l[i] = (long)x * 3000000000L ^ (x < y ? k : -k);
    u[i] = ((uint)x >> (y & 7)) | (uint)(x > y ? x : y) | (uint)(-x < k ? -x : k);
    f[i] = (float)x * 0.5f - (float)(uint)y + (float)(int)((float)k * 1.5f);
}
