/* Matrix transpose of a w x h float matrix (row-major; out is h x w): out[x][y] =
 * in[y][x]. Launch over w x h work-items; transpose_tiled needs 16 x 16 work-groups
 * and w, h multiples of 16. */

/* One work-item per element: the loads walk along rows of in (neighbouring work-items
 * read neighbouring addresses, which the load unit combines into whole memory lines),
 * but the stores walk down a column of out, h floats apart: every store touches its
 * own memory line. */
__kernel void transpose_naive(__global const float *restrict in, __global float *restrict out,
                              int w, int h)
{
    int x = get_global_id(0), y = get_global_id(1);
    out[x * h + y] = in[y * w + x];
}

/* Through a 16 x 16 tile in __local memory: the work-group reads its tile row by row,
 * and after the barrier writes the transposed tile row by row too, work-item (lx, ly)
 * taking element (ly, lx) of the tile. Both global accesses now walk along rows. The
 * tile has 17 columns (one unused): reading it down a column then steps 17 words, so
 * neighbouring reads fall into different banks of the __local memory. */
__kernel __attribute__((reqd_work_group_size(16, 16, 1)))
void transpose_tiled(__global const float *restrict in, __global float *restrict out,
                     int w, int h)
{
    __local float tile[16][17];
    int lx = get_local_id(0), ly = get_local_id(1);
    tile[ly][lx] = in[get_global_id(1) * w + get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    int ox = get_group_id(1) * 16 + lx, oy = get_group_id(0) * 16 + ly;
    out[oy * h + ox] = tile[lx][ly];
}
