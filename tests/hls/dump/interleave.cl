// PASS: schedule
// Interleaving (Intel's): an inner loop whose II a recurrence sets takes that many
// outer iterations in turns, an iteration of each in a round, when each goes round it
// as many times and the outer loop carries nothing past it. #pragma max_interleaving 2
// takes two, 1 keeps one at a time; a triangle's trip count varies; a value the outer
// loop carries past the inner loop keeps one at a time; the loop of a kernel whose
// work-groups are of one takes work-items in turns.
// CHECK: kernel rows
// CHECK: loop at line 23 {{.*}}pipelined, II 5, latency {{.*}}, 5 work-items interleaved)
// CHECK: kernel capped
// CHECK: loop at line 33 {{.*}}pipelined, II 5, latency {{.*}}, 2 work-items interleaved) #pragma max_interleaving 2
// CHECK: loop at line 40 {{.*}}pipelined, II 5, latency {{.*}}, not interleaved) #pragma max_interleaving 1
// CHECK: kernel triangle
// CHECK: loop at line 49 {{.*}}pipelined, II 5, latency {{.*}}, not interleaved) phis
// CHECK: kernel carried_past
// CHECK: loop at line 60 {{.*}}pipelined, II 5, latency {{.*}}, not interleaved) phis
// CHECK: kernel groups_of_one
// CHECK: loop at line 71 {{.*}}pipelined, II 5, latency {{.*}}, 5 work-items interleaved)
__kernel void rows(__global const float *restrict a, __global float *restrict out, int m)
{
    for (int r = 0; r < m; r++) {
        float s = 0.0f;
        for (int k = 0; k < m; k++)
            s += a[r * m + k];
        out[r] = s;
    }
}
__kernel void capped(__global const float *restrict a, __global float *restrict out, int m)
{
    for (int r = 0; r < m; r++) {
        float s = 0.0f;
#pragma max_interleaving 2
        for (int k = 0; k < m; k++)
            s += a[r * m + k];
        out[r] = s;
    }
    for (int r = 0; r < m; r++) {
        float t = 1.0f;
#pragma max_interleaving 1
        for (int k = 0; k < m; k++)
            t += a[r * m + k];
        out[r] += t;
    }
}
__kernel void triangle(__global const float *restrict a, __global float *restrict out, int m)
{
    for (int r = 0; r < m; r++) {
        float s = 0.0f;
        for (int k = 0; k <= r; k++)
            s += a[k];
        out[r] = s;
    }
}
__kernel void carried_past(__global const float *restrict a, __global float *restrict out,
                           int m)
{
    float total = 0.0f;
    for (int r = 0; r < m; r++) {
        float s = 0.0f;
        for (int k = 0; k < m; k++)
            s += a[r * m + k];
        total = total * 0.5f + s;
        out[r] = total;
    }
}
__kernel __attribute__((reqd_work_group_size(1, 1, 1)))
void groups_of_one(__global const float *restrict a, __global float *restrict out, int m)
{
    int r = get_global_id(0);
    float s = 0.0f;
    for (int k = 0; k < m - r % 5; k++)
        s += a[r * m + k];
    out[r] = s;
}
