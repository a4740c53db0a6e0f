// PASS: ifconvert
// Nested loops with an early exit from the inner one: two loop regions, the inner
// inside the outer's body, and a store after both.
__kernel void nest(__global const int *a, __global int *c, int n)
{
    int i = get_global_id(0);
    int s = 0;
    for (int j = 0; j < n; j++) {
        for (int k = 0; k < j; k++) {
            if (a[k] == i)
                break;
            s += a[k];
        }
        s ^= j;
    }
    c[i] = s;
}
// CHECK: kernel nest (3 args, 2 load-store units
// CHECK: region 1: static
// CHECK: : loop at line 8
// CHECK:   region
// CHECK: : loop at line 9
// CHECK: = load i32
// CHECK: = store i32
