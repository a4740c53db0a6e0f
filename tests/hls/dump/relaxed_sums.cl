// PASS: schedule
// OPTIONS: -cl-fast-relaxed-math
// With relaxed math a float sum carried round a task loop becomes as many partial
// sums as the adder has stages (5 on sim_dc): a shift register of recurrences at II 1,
// the partials added up for the reader after the loop. A sum the loop also reads
// otherwise (the running total stored each iteration) stays in order, at the adder's
// latency.
// CHECK: kernel fsum
// CHECK: pipelined, II 1,
// CHECK: = recur i32
// CHECK: = recur i32
// CHECK: = recur i32
// CHECK: = recur i32
// CHECK: = recur i32
// CHECK: fadd i32
// CHECK: fadd i32
// CHECK: fadd i32
// CHECK: fadd i32
// CHECK: fadd i32
// CHECK: kernel running
// CHECK: pipelined, II 5,
__kernel void fsum(__global const float *restrict a, __global float *restrict out, int n)
{
    float s = 0.0f;
    for (int i = 0; i < n; i++)
        s += a[i];
    out[0] = s;
}
__kernel void running(__global const float *restrict a, __global float *restrict out, int n)
{
    float s = 0.0f;
    for (int i = 0; i < n; i++) {
        s += a[i];
        out[i] = s;
    }
}
