// PASS: schedule
// Loop nests of single work-item kernels: every loop of a matrix multiply is pipelined
// (the outer tests move before the inner loops, an outer iteration past the exit enters
// the inner loop inactive), and so is a triangle whose inner trip count is the outer
// index; an inner loop that reads what the outer loop stores (no restrict) keeps the
// outer loop serial.
// CHECK: kernel matmul
// CHECK: loop at line 20 {{.*}}pipelined, II 1,
// CHECK: loop at line 21 {{.*}}pipelined, II 1,
// CHECK: loop at line 23 {{.*}}pipelined, II 5,
// CHECK: kernel triangle
// CHECK: loop at line 30 {{.*}}pipelined, II 1,
// CHECK: loop at line 32 {{.*}}pipelined, II 1,
// CHECK: kernel reads_stores
// CHECK: loop at line 39 {{.*}}serial: the load at {{.*}}:42 may read what the store at {{.*}}:43 wrote in an earlier iteration
// CHECK: loop at line 41 {{.*}}pipelined
__kernel void matmul(__global const float *restrict a, __global const float *restrict b,
                     __global float *restrict c, int m)
{
    for (int r = 0; r < m; r++)
        for (int col = 0; col < m; col++) {
            float acc = 0.0f;
            for (int k = 0; k < m; k++)
                acc += a[r * m + k] * b[k * m + col];
            c[r * m + col] = acc;
        }
}
__kernel void triangle(__global const int *restrict a, __global int *restrict out, int n)
{
    for (int i = 0; i < n; i++) {
        int s = 0;
        for (int j = 0; j <= i; j++)
            s += a[j];
        out[i] = s;
    }
}
__kernel void reads_stores(__global int *out, int n)
{
    for (int i = 0; i < n; i++) {
        int s = 0;
        for (int j = 0; j < i; j++)
            s += out[j];
        out[i] = s + 1;
    }
}
