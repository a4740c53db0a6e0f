// expect: cl20_builtin_bad.cl:6:13: note: 'work_group_reduce_add' is an OpenCL C 2.0 built-in function: build with -cl-std=CL2.0
// A collective without -cl-std=CL2.0: clang calls it undeclared, the note says why.
__kernel void total(__global const int *in, __global int *out)
{
    int x = in[get_global_id(0)];
    int s = work_group_reduce_add(x);
    out[get_global_id(0)] = s;
}
