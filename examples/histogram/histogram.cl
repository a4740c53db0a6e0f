/* A 256-bin histogram of bytes, two ways. histogram_global: every work-item adds its
 * bytes straight into the global bins, one global atomic per byte, all work-items of
 * the device contending for 256 addresses. histogram_local: each work-group counts
 * into a __local copy of the bins (atomics in the local memory's banks), then adds
 * its 256 counts to the global bins: 256 global atomics per work-group. */
__kernel void histogram_global(__global const uchar *data, __global uint *bins, int n)
{
    for (int k = get_global_id(0); k < n; k += get_global_size(0))
        atomic_inc(&bins[data[k]]);
}

__kernel void histogram_local(__global const uchar *data, __global uint *bins, int n)
{
    __local uint local_bins[256];
    int l = get_local_id(0), size = get_local_size(0);
    for (int b = l; b < 256; b += size)
        local_bins[b] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = get_global_id(0); k < n; k += get_global_size(0))
        atomic_inc(&local_bins[data[k]]);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int b = l; b < 256; b += size)
        atomic_add(&bins[b], local_bins[b]);
}
