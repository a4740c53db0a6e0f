// expect: undefined_function_bad.cl:7:21: error: function 'scale' is declared but never defined
/* A function the program declares and never defines is the program's mistake, not a
 * built-in the compiler lacks. */
float scale(float x, float *rest);

__kernel void k(__global float *a) {
    float r; a[0] = scale(a[1], &r) + r;
}
