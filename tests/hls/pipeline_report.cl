/* Loops of single work-item kernels whose II report.json gives (check_pipeline_report.sh):
 * streaming, a float sum, #pragma ii, #pragma ivdep, #pragma disable_loop_pipelining, and
 * (last, so the lines named stay) a search and sums per row (interleaved rows). */
__kernel void stream(__global const float *restrict a, __global float *restrict c, int n)
{
    for (int i = 0; i < n; i++)
        c[i] = a[i] * 3.0f;
}
__kernel void fsum(__global const float *restrict a, __global float *restrict out, int n)
{
    float s = 0.0f;
    for (int i = 0; i < n; i++)
        s += a[i];
    out[0] = s;
}
__kernel void asked(__global const float *restrict a, __global float *restrict c, int n)
{
    #pragma ii 5
    for (int i = 0; i < n; i++)
        c[i] = a[i] * 3.0f;
}
__kernel void scatter(__global int *restrict a, __global const int *restrict idx,
                      __global const int *restrict b, int n)
{
    #pragma ivdep
    for (int i = 0; i < n; i++)
        a[idx[i]] += b[i];
}
__kernel void off(__global const float *restrict a, __global float *restrict c, int n)
{
    #pragma disable_loop_pipelining
    for (int i = 0; i < n; i++)
        c[i] = a[i] * 3.0f;
}
__kernel void search(__global const int *restrict a, __global int *restrict out, int key)
{
    int i = 0;
    while (a[i] != key)
        i++;
    out[0] = i;
}
__kernel void rows(__global const float *restrict a, __global float *restrict out, int m)
{
    for (int r = 0; r < m; r++) {
        float s = 0.0f;
        for (int k = 0; k < m; k++)
            s += a[r * m + k];
        out[r] = s;
    }
}
