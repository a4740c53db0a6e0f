// PASS: memorder
// "order": the load may read what the work-item's own earlier store wrote (b may be the
// buffer a), so the store is acknowledged and the load waits for it; the second store
// waits for the first, not for the load of the next element. "fine": restrict
// buffers, and a[i], a[i + 1] are one address plus 0 and 4: nothing waits. "swap": each
// store waits for the load of its own address only. "down": a[i] and a[i + 1] of a
// loop's index are different addresses in one iteration but meet across iterations
// (i goes down): the store stays ordered after the load. (swap: odd pairs, not merged.)
__kernel void order(__global int *a, __global int *b)
{
    size_t i = get_global_id(0);
    a[i] = 1;
    b[i] = b[i + 1] + 2;
}
__kernel void fine(__global int *restrict a, __global const int *restrict b)
{
    size_t i = get_global_id(0);
    a[i] = 1;
    a[i + 1] = b[i] + 2;
}
__kernel void swap(__global float *a)
{
    size_t i = get_global_id(0);
    float x = a[2 * i + 1], y = a[2 * i + 2];
    a[2 * i + 1] = y;
    a[2 * i + 2] = x;
}
__kernel void down(__global int *a, int n)
{
    for (int i = n; i > 0; i--)
        a[i] = a[i + 1] + 1;
}
// CHECK: kernel order
// CHECK: %7 = store i32 {{.*}} [lsu 0, addrspace 1, acknowledged]  ; line 12
// CHECK: = load i32 {{.*}} [lsu 1, addrspace 1] after %7  ; line 13
// CHECK: = store i32 {{.*}} [lsu 2, addrspace 1] after %7  ; line 13
// CHECK: kernel fine
// CHECK: = store i32 {{.*}} [lsu 0, addrspace 1]  ; line 18
// CHECK: = load i32 {{.*}} [lsu 1, addrspace 1]  ; line 19
// CHECK: = store i32 {{.*}} [lsu 2, addrspace 1]  ; line 19
// CHECK: kernel swap
// CHECK: %8 = load i32 {{.*}} [lsu 0, addrspace 1]  ; line 24
// CHECK: %12 = load i32 {{.*}} [lsu 1, addrspace 1]  ; line 24
// CHECK: = store i32 {{.*}} [lsu 2, addrspace 1] after %8  ; line 25
// CHECK: = store i32 {{.*}} [lsu 3, addrspace 1] after %12  ; line 26
// CHECK: kernel down
// CHECK: = store i32 {{.*}} [lsu 1, addrspace 1, acknowledged] after %
