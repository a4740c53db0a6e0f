// expect: syntax_bad.cl:5:12: error: use of undeclared identifier 'undefined_name'
__kernel void broken(__global int *c)
{
    size_t i = get_global_id(0);
    c[i] = undefined_name + 1;
}
