/* Bank conflicts in __local memory. clhls builds each __local array as a memory with
 * one port per access in the kernel (here 4 writes and 4 reads: 8 ports) and splits it
 * into word-interleaved banks (up to 8; word i lives in bank i % 8 here). Each bank
 * serves one access per cycle; accesses that meet in one bank in the same cycle take
 * turns: a bank conflict, counted in local_conflicts (CLHLS_VERBOSE=1).
 *
 * Both kernels compute the same thing: out is the w x h/4 image whose pixel (x, y) is
 * the sum of the four pixels (x, 4y .. 4y+3) of the w x h image in. A 32 x 8 work-group
 * handles a 32 x 32 block: each work-item copies 4 neighbouring pixels of a row into
 * the tile (4 consecutive words: 4 different banks), and after the barrier adds up 4
 * pixels of a column. In a 32 x 32 tile those 4 are 32 words apart, all in one bank,
 * and have to be read one after the other. A 33rd, unused column puts them 33 words
 * apart, in 4 different banks, and they are read at once. Launch over w x h/4
 * work-items in 32 x 8 work-groups, w and h multiples of 32; in is read as float4
 * (4 pixels of a row in one access). */

__kernel __attribute__((reqd_work_group_size(32, 8, 1)))
void column_sums_32(__global const float4 *restrict in, __global float *restrict out, int w)
{
    __local float tile[32][32];
    int lx = get_local_id(0), ly = get_local_id(1), l = ly * 32 + lx;
    int bx = get_group_id(0) * 32, by = get_group_id(1) * 32;
    int row = l / 8, col = 4 * (l % 8);         /* 4 pixels of one row: one float4 */
    float4 v = in[((by + row) * w + bx + col) / 4];
    tile[row][col] = v.x;
    tile[row][col + 1] = v.y;
    tile[row][col + 2] = v.z;
    tile[row][col + 3] = v.w;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(1) * w + get_global_id(0)] =
        tile[4 * ly][lx] + tile[4 * ly + 1][lx] + tile[4 * ly + 2][lx] + tile[4 * ly + 3][lx];
}

__kernel __attribute__((reqd_work_group_size(32, 8, 1)))
void column_sums_33(__global const float4 *restrict in, __global float *restrict out, int w)
{
    __local float tile[32][33];                 /* the same, with one column of padding */
    int lx = get_local_id(0), ly = get_local_id(1), l = ly * 32 + lx;
    int bx = get_group_id(0) * 32, by = get_group_id(1) * 32;
    int row = l / 8, col = 4 * (l % 8);
    float4 v = in[((by + row) * w + bx + col) / 4];
    tile[row][col] = v.x;
    tile[row][col + 1] = v.y;
    tile[row][col + 2] = v.z;
    tile[row][col + 3] = v.w;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(1) * w + get_global_id(0)] =
        tile[4 * ly][lx] + tile[4 * ly + 1][lx] + tile[4 * ly + 2][lx] + tile[4 * ly + 3][lx];
}
