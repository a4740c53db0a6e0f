/* C = A x B for square n x n float matrices (row-major), one work-item per element of C.
 * Both kernels add the products in the same order (k = 0, 1, ..., n-1), so with
 * FP_CONTRACT OFF (no fused multiply-add) they give the same bits as a plain host loop.
 * Launch both with a 2-D range of n x n work-items; matmul_tiled needs 16 x 16
 * work-groups and n a multiple of 16. */
#pragma OPENCL FP_CONTRACT OFF

#define TS 16 /* tile edge: the work-group is TS x TS work-items */

/* Every work-item reads its row of A and its column of B straight from global memory:
 * 2n global loads per work-item, each element of A and B loaded n times in all. */
__kernel void matmul_naive(__global const float *restrict a, __global const float *restrict b,
                           __global float *restrict c, int n)
{
    int col = get_global_id(0), row = get_global_id(1);
    float acc = 0.0f;
    for (int k = 0; k < n; k++)
        acc += a[row * n + k] * b[k * n + col];
    c[row * n + col] = acc;
}

/* The work-group walks along A's rows and B's columns one TS x TS tile at a time: each
 * work-item loads one element of each tile into __local memory, the barrier waits
 * until the whole tile is there, then every work-item reads TS elements of each tile
 * from __local memory. The second barrier keeps the next tile from overwriting one
 * that other work-items still read. Global loads drop from 2n to 2n/TS per work-item.
 *
 * The inner loop is unrolled, so each work-item issues its TS reads of a tile at once,
 * through TS ports of the __local memory, whose word-interleaved banks serve one
 * access each per cycle. In an unpadded TS x TS tile the reads bs[0][tx] .. bs[TS-1][tx]
 * are TS words apart, all in one bank, and have to take turns; one extra (unused)
 * column per row (TS + 1 words per row) puts the elements of a column in consecutive
 * banks. Without the padding this kernel takes about three times as long (see the
 * bank_conflicts example, and local_conflicts with CLHLS_VERBOSE=1). */
__kernel __attribute__((reqd_work_group_size(TS, TS, 1)))
void matmul_tiled(__global const float *restrict a, __global const float *restrict b,
                  __global float *restrict c, int n)
{
    __local float as[TS][TS + 1], bs[TS][TS + 1]; /* TS x TS tiles, padded */
    int tx = get_local_id(0), ty = get_local_id(1);
    int col = get_global_id(0), row = get_global_id(1);
    float acc = 0.0f;
    for (int t = 0; t < n / TS; t++) {
        as[ty][tx] = a[row * n + t * TS + tx];
        bs[ty][tx] = b[(t * TS + ty) * n + col];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TS; k++)
            acc += as[ty][k] * bs[k][tx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    c[row * n + col] = acc;
}
