// PASS: lower
// A private array indexed at run time becomes one wide value (8 ints: 256 bits):
// the clear is a constant, each write an insert, each read an extract. A struct
// argument's fields are slices of the argument area at their offsets.
typedef struct { int scale; float offset; char tag; } params;
__kernel void hist(__global const int *in, __global int *out, params p)
{
    int i = get_global_id(0);
    int h[8] = {0};
    for (int j = 0; j < 4; j++)
        h[in[4 * i + j] & 7] += p.scale;
    out[i] = h[in[i] & 7] + p.tag;
}
// CHECK: kernel hist (3 args
// CHECK: = arg i32 p
// CHECK: = insert i256
// CHECK: = extract i32
// CHECK: = arg i8 p+8
