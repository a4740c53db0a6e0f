/* Exclusive prefix sums of ints within work-groups, three ways. Each kernel writes, for
 * every element, the sum of the elements before it in its work-group (out), and the
 * sum of the whole group (sums[group]). Launch with a 1-D range whose work-group size
 * is a power of two (scan_blelloch needs it). Built as OpenCL C 2.0 (-cl-std=CL2.0)
 * for the work-group functions of scan_wg. */

/* Naive: work-item l adds up the l elements before it, straight from global memory.
 * l loop iterations per work-item: n(n-1)/2 for a group of n, where a scan needs n. */
__kernel void scan_naive(__global const int *restrict in, __global int *restrict out,
                         __global int *restrict sums)
{
    int g = get_global_id(0), l = get_local_id(0);
    int s = 0;
    for (int j = g - l; j < g; j++)
        s += in[j];
    out[g] = s;
    if (l == (int)get_local_size(0) - 1)
        sums[get_group_id(0)] = s + in[g];
}

/* Work-efficient (Blelloch): an up-sweep builds partial sums in a tree in __local
 * memory, the root (the group's total) is replaced by 0, and a down-sweep pushes the
 * sums back down, giving the exclusive scan in place: 2 log2(n) steps with a barrier
 * each, n - 1 additions in each sweep.
 *
 * The tree's two reads of a step are `offset` words apart, a multiple of 8 from the
 * fourth step on, and clhls splits a __local array into (up to 8) word-interleaved
 * banks, so they would fall into one bank and take turns. PAD inserts one unused word
 * after every 8, which moves such pairs into different banks. temp is a __local
 * argument: the host sizes it, PAD(n - 1) + 1 ints (clSetKernelArg(k, 3, bytes, NULL)). */
#define LOG_BANKS 3
#define PAD(i) ((i) + ((i) >> LOG_BANKS))

__kernel void scan_blelloch(__global const int *restrict in, __global int *restrict out,
                            __global int *restrict sums, __local int *temp)
{
    int l = get_local_id(0), n = get_local_size(0);
    temp[PAD(l)] = in[get_global_id(0)];
    int offset = 1;
    for (int d = n >> 1; d > 0; d >>= 1) {          /* up-sweep */
        barrier(CLK_LOCAL_MEM_FENCE);
        if (l < d) {
            int ai = offset * (2 * l + 1) - 1, bi = offset * (2 * l + 2) - 1;
            temp[PAD(bi)] += temp[PAD(ai)];
        }
        offset <<= 1;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0) {
        sums[get_group_id(0)] = temp[PAD(n - 1)];
        temp[PAD(n - 1)] = 0;
    }
    for (int d = 1; d < n; d <<= 1) {               /* down-sweep */
        offset >>= 1;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (l < d) {
            int ai = offset * (2 * l + 1) - 1, bi = offset * (2 * l + 2) - 1;
            int t = temp[PAD(ai)];
            temp[PAD(ai)] = temp[PAD(bi)];
            temp[PAD(bi)] += t;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = temp[PAD(l)];
}

/* OpenCL C 2.0's work-group functions do it in one call each: the scan, and the
 * broadcast of the last work-item's inclusive sum (the group's total). out is stored
 * after the broadcast: a store before a work-group function (as before a barrier) has
 * to complete before the work-item goes on and is sent to memory alone, while stores
 * after it are combined into whole memory lines. */
__kernel void scan_wg(__global const int *restrict in, __global int *restrict out,
                      __global int *restrict sums)
{
    int x = in[get_global_id(0)];
    int s = work_group_scan_exclusive_add(x);
    int total = work_group_broadcast(s + x, get_local_size(0) - 1);
    out[get_global_id(0)] = s;
    if (get_local_id(0) == 0)
        sums[get_group_id(0)] = total;
}
