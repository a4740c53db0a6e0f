/* A 3x3 box blur of a w x h float image (row-major) in T x T work-groups whose tiles,
 * with a one-pixel halo, are staged in __local memory. The image need not be a
 * multiple of T: built as OpenCL C 2.0 (-cl-std=CL2.0), the range is exactly w x h
 * work-items and the work-groups at the right and bottom edges are smaller
 * (non-uniform work-groups); get_local_size gives a group's actual size,
 * get_enqueued_local_size the T x T the host asked for. */
#pragma OPENCL FP_CONTRACT OFF

#define T 16 /* the enqueued work-group size is T x T */

/* Each work-group copies its (nx + 2) x (ny + 2) pixels (its own nx x ny and the ring
 * around them) into tile, the work-items taking turns over the positions; pixels
 * outside the image repeat the nearest edge pixel. After the barrier each work-item
 * averages its 3 x 3 neighbourhood from __local memory: 9 reads of fast on-chip memory
 * instead of 9 global loads. */
__kernel void box_blur(__global const float *restrict in, __global float *restrict out,
                       int w, int h)
{
    __local float tile[T + 2][T + 2];
    int lx = get_local_id(0), ly = get_local_id(1);
    int nx = get_local_size(0), ny = get_local_size(1);  /* this group's actual size */
    int x0 = get_group_id(0) * get_enqueued_local_size(0) - 1; /* the tile's corner */
    int y0 = get_group_id(1) * get_enqueued_local_size(1) - 1;
    for (int i = ly * nx + lx; i < (nx + 2) * (ny + 2); i += nx * ny) {
        int tx = i % (nx + 2), ty = i / (nx + 2);
        int gx = clamp(x0 + tx, 0, w - 1), gy = clamp(y0 + ty, 0, h - 1);
        tile[ty][tx] = in[gy * w + gx];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    float s = 0.0f;
    for (int dy = 0; dy < 3; dy++)
        for (int dx = 0; dx < 3; dx++)
            s += tile[ly + dy][lx + dx];
    out[get_global_id(1) * w + get_global_id(0)] = s / 9.0f;
}

/* Work-item (0, 0) of every group writes the group's actual and enqueued sizes:
 * info[4 * group + 0..3] = local size x, y, enqueued local size x, y. */
__kernel void group_sizes(__global int *info)
{
    if (get_local_id(0) == 0 && get_local_id(1) == 0) {
        int g = get_group_id(1) * get_num_groups(0) + get_group_id(0);
        info[4 * g + 0] = get_local_size(0);
        info[4 * g + 1] = get_local_size(1);
        info[4 * g + 2] = get_enqueued_local_size(0);
        info[4 * g + 3] = get_enqueued_local_size(1);
    }
}
