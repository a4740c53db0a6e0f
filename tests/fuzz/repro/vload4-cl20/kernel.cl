/* Build with -cl-std=CL2.0; run with global 16, local 4; in[i] = i. Expected (as
 * with -cl-std=CL1.2): out[g] = in[4 * ((g + 6) & 255)] + in[4 * ((g + 6) & 255) + 3]. */
__kernel void t1(__global uint *out, __global const uint *in)
{
    uint g = get_global_id(0);
    uint4 a = vload4((g + 6u) & 255u, in);
    out[g] = a.x + a.w;
}
