// PASS: banks
// Static bank wiring of local memories (localbanks.c). Proved: one port; four unrolled
// accesses t[4*lid+k] on four banks; a tile read by row, its rows padded to four words
// (three ports, four banks); two ports two words apart, on two banks apart once the
// memory has four. Not proved: a stride known only at run time; two ports whose
// addresses differ by a multiple of the banks' span.
__kernel void one(__global int *out)
{
    __local int t[64];
    out[get_global_id(0)] = atomic_add(&t[get_local_id(0)], 1);
}
__kernel void four(__global const int *in)
{
    __local int t[256];
    int lid = get_local_id(0);
#pragma unroll
    for (int k = 0; k < 4; k++)
        t[4 * lid + k] = in[k];
}
__kernel void tile(__global float *out)
{
    __local float rows[64][3 + 1];
    int lid = get_local_id(0);
    out[get_global_id(0)] = rows[lid][0] + rows[lid][1] * 2.0f + rows[lid][2] * 3.0f;
}
__kernel void apart(__global int *out)
{
    __local int t[256];
    int lid = get_local_id(0);
    out[get_global_id(0)] = t[4 * lid] - t[4 * lid + 2];
}
__kernel void runtime_stride(__global int *out, int stride)
{
    __local int t[256];
    int lid = get_local_id(0);
    out[get_global_id(0)] = t[lid * stride] + t[lid * stride + 1];
}
__kernel void collide(__global int *out)
{
    __local int t[256];
    int lid = get_local_id(0);
    out[get_global_id(0)] = t[8 * lid + 1] + t[8 * lid + 9];
}
// CHECK: kernel one
// CHECK:   local t: 1 ports, 1 banks, static banks: port 0 -> bank 0
// CHECK: kernel four
// CHECK:   local t: 4 ports, 4 banks, static banks: port 0 -> bank 0, port 1 -> bank 1, port 2 -> bank 2, port 3 -> bank 3
// CHECK: kernel tile
// CHECK:   local rows: 3 ports, 4 banks, static banks: port 0 -> bank 0, port 1 -> bank 1, port 2 -> bank 2
// CHECK: kernel apart
// CHECK:   local t: 2 ports, 4 banks, static banks: port 0 -> bank 0, port 1 -> bank 2
// CHECK: kernel runtime_stride
// CHECK:   local t: 2 ports, 2 banks, crossbar: port 0 may hit any bank
// CHECK: kernel collide
// CHECK:   local t: 2 ports, 2 banks, crossbar: ports 0 and 1 may both hit bank 1
