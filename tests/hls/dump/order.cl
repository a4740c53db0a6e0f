// PASS: memorder
// "order": the load may read what the work-item's own earlier store wrote, so the
// store is acknowledged and the load waits for it; the second store (same buffer)
// waits for both. "fine": restrict buffers: the load runs free, but the two stores to
// one buffer are still ordered.
__kernel void order(__global int *a, __global int *b)
{
    size_t i = get_global_id(0);
    a[i] = 1;
    b[i] = a[i + 1] + 2;
}
__kernel void fine(__global int *restrict a, __global const int *restrict b)
{
    size_t i = get_global_id(0);
    a[i] = 1;
    a[i + 1] = b[i] + 2;
}
// CHECK: kernel order
// CHECK: = store i32 {{.*}} [lsu 0, addrspace 1, acknowledged]
// CHECK: = load i32
// CHECK: ] after %
// CHECK: kernel fine
// CHECK: [lsu 1, addrspace 1]  ; line 16
