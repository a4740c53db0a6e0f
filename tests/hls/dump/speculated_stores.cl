// PASS: schedule
// A loop whose exit test waits for a load runs ahead of its exit; its stores move after
// the test, where the exit register masks those of iterations past the exit. A store
// that the load before the test may read cannot wait for the test: the loop stays
// serial, and says why.
// CHECK: kernel copy_until
// CHECK: loop at line 18 {{.*}}pipelined, II 1, latency {{.*}}, speculative)
// CHECK: load i32 {{.*}}speculative]
// CHECK: alive i1
// CHECK: = and i1 {{.*}}; line 19
// CHECK: memory
// CHECK: store i32 {{.*}}; line 19
// CHECK: kernel clear_until
// CHECK: serial: whether it goes round again ({{.*}}:28) waits for memory, and the store at {{.*}}:29 before it cannot wait for the test: it may touch the bytes the load at {{.*}}:28 reads
__kernel void copy_until(__global const int *restrict a, __global int *restrict b, int key)
{
    int i = 0;
    while (a[i] != key) {
        b[i] = a[i] * 2;
        i++;
    }
}
__kernel void clear_until(__global const int *a, __global int *b, int key)
{
    int i = 0;
    int n = 0;
    n += 0;
    while (a[i] != key) {
        b[i] = 0;
        i++;
    }
}
