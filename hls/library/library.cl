/* The OpenCL C built-in library of clhls: every part, compiled together into
 * clhls_library.bc (see hls/CMakeLists.txt) and linked into each program. */
#include "common.cl"
#include "convert.cl"
#include "geometric.cl"
#include "integer.cl"
#include "math.cl"
#include "vload.cl"
#include "relational.cl"
