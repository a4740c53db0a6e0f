// expect: double_bad.cl:6:12: error: double precision floating point is not supported yet
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void scale(__global double *a)
{
    size_t i = get_global_id(0);
    a[i] = a[i] * 2.5;
}
