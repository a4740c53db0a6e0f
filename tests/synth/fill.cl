/* The smallest real kernel: one store per work-item. Small enough to be placed and
 * routed on an iCE40 UP5K. */
__kernel void fill(__global int *a)
{
    a[get_global_id(0)] = 1;
}
