// expect: atomic_bad.cl:5:15: error: OpenCL builtin 'atomic_add' is not supported yet
__kernel void count(__global int *c, __global int *seen)
{
    size_t i = get_global_id(0);
    seen[i] = atomic_add(&c[i & 3], 1);
}
