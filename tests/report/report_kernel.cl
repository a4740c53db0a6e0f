/* The report's test kernel: a loop, a branch with a loop inside, __local memory and a
 * barrier. This comment holds markup, <b>not bold</b> & "quoted", which the page must
 * show as text. */
__kernel void block_sums(__global const int *in, __global int *out, int n)
{
    __local int partial[256];
    int l = get_local_id(0);
    int acc = 0;
    for (int i = get_global_id(0); i < n; i += get_global_size(0))
        acc += in[i];
    partial[l] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0) {
        int total = 0;
        for (int j = 0; j < get_local_size(0); j++)
            total += partial[j];
        out[get_group_id(0)] = total;
    }
}
