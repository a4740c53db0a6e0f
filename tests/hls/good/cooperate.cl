/* Work-group cooperation for the generated-Verilog lint: __local memory with atomics
 * and a __local argument, barriers (one in a loop), work-group functions of several
 * kinds and types, global atomics of 32 and 64 bits. */
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
__kernel void cooperate(__global const float *in, __global float *out, __global int *count,
                        __global long *total, __local int *scratch)
{
    __local uint bins[64];
    int l = get_local_id(0);
    bins[l] = 0;
    scratch[l] = l;
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_inc(&bins[(int)in[get_global_id(0)] & 63]);
    for (int d = get_local_size(0) / 2; d > 0; d >>= 1) {
        if (l < d)
            scratch[l] += scratch[l + d];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    float x = in[get_global_id(0)];
    float s = work_group_reduce_add(x) + work_group_scan_exclusive_max(x);
    int b = work_group_broadcast(scratch[0], 1) + work_group_any(l > 3);
    atomic_add(&count[l & 3], b + (int)bins[l]);
    atom_add(&total[0], (long)b);
    out[get_global_id(0)] = s + (float)work_group_reduce_min((long)l);
}
