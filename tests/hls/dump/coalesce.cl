// PASS: lower
// Static coalescing: four loads and four stores at consecutive addresses that a
// 16-byte boundary starts (buffers are page-aligned, 4 * i floats in) become one
// 128-bit load and one 128-bit store, each one load-store unit; in[i] and in[i + 1]
// may straddle a boundary, so they stay two loads.
__kernel void quad(__global const float *in, __global float *out)
{
    size_t i = get_global_id(0);
    float a = in[4 * i], b = in[4 * i + 1], c = in[4 * i + 2], d = in[4 * i + 3];
    out[4 * i] = d;
    out[4 * i + 1] = c;
    out[4 * i + 2] = b;
    out[4 * i + 3] = a;
}

__kernel void pair(__global const int *in, __global int *out)
{
    size_t i = get_global_id(0);
    out[i] = in[i] + in[i + 1];
}
// CHECK: kernel quad (2 args, 2 load-store units
// CHECK: = load i128 %{{.*}} [lsu 0, addrspace 1]  ; line 9
// CHECK: = extract i32
// CHECK: = insert i128
// CHECK: = store i128 %{{.*}} [lsu 1, addrspace 1]
// CHECK: kernel pair (2 args, 3 load-store units
// CHECK: = load i32 %{{.*}} [lsu 0, addrspace 1]
// CHECK: = load i32 %{{.*}} [lsu 1, addrspace 1]
// CHECK: = store i32
