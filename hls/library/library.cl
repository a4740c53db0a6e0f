/* The OpenCL C built-in library of clhls: every OpenCL C 1.2 part (the double math
 * functions in math_double.cl), compiled together and linked with atomics.cl into
 * clhls_library.bc (see hls/CMakeLists.txt), which every program links. */
#include "common.cl"
#include "convert.cl"
#include "geometric.cl"
#include "integer.cl"
#include "math.cl"
#include "math_double.cl"
#include "vload.cl"
#include "relational.cl"
#include "shuffle.cl"
