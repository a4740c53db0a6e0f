// expect: branch_bad.cl:5:5: error: branches and loops are not supported yet
__kernel void sum(__global const int *a, __global int *c, int n)
{
    int s = 0;
    for (int j = 0; j < n; j++)
        s += a[j];
    c[get_global_id(0)] = s;
}
