/* Seed 80209, reduced by hand: abs_diff(x, INT_MIN) for x = 0, 1, 2, 3.
 *
 * Host: OpenCL C 1.2, no build options; NDRange 1-D, global 4, local 4;
 * argument 0 out: uint[4], initialised to 0.
 *
 * Expected: out = { 0x80000000, 0x80000001, 0x80000002, 0x80000003 } (abs_diff
 * returns the exact difference as an unsigned value, OpenCL C 6.13.3). clhls gives
 * that; PoCL 3.1 gives { 0x80000000, 0x7fffffff, 0x7ffffffe, 0x7ffffffd }, wrong as
 * soon as the difference exceeds INT_MAX. */
__kernel void abs_diff_int_min(__global uint *out)
{
    int x = (int)get_global_id(0);
    out[x] = abs_diff(x, INT_MIN);
}
