// PASS: schedule
// Channel accesses are memory-node accesses on the program's channel numbers: a
// pipelined producer's write (a predicated chanwrite of the element) and consumer's
// read (II 1), a float4 as one 128-bit element, the non-blocking read's element below
// its valid bit, and a retry loop on a non-blocking write, serial because its exit is
// the write's answer. A channel declared with depth(1) gets two entries, and says so.
// CHECK: note: channel 'c_retry' holds 2 elements, more than its depth(1)
// CHECK: kernel producer
// CHECK: loop at line 25 {{.*}}pipelined, II 1
// CHECK: memory
// CHECK: chanwrite i32 {{.*}}[channel 0]  ; line 26
// CHECK: kernel consumer
// CHECK: chanread i128 {{.*}}[channel 1]  ; line 31
// CHECK: chanread i33 {{.*}}[channel 0, non-blocking]  ; line 32
// CHECK: extract i1
// CHECK: kernel retry
// CHECK: serial: whether it goes round again ({{.*}}:40) is the answer of the chanwrite at {{.*}}:40
#pragma OPENCL EXTENSION cl_intel_channels : enable
channel int c_data __attribute__((depth(8)));
channel float4 c_wide;
channel int c_retry __attribute__((depth(1)));

__kernel void producer(__global const int *restrict in, int n)
{
    for (int i = 0; i < n; i++)
        write_channel_intel(c_data, in[i]);
}
__kernel void consumer(__global float4 *restrict out, __global int *restrict flags)
{
    bool valid;
    out[0] = read_channel_intel(c_wide);
    flags[0] = read_channel_nb_intel(c_data, &valid);
    flags[1] = valid;
}
__kernel void wide(float4 v) { write_channel_intel(c_wide, v); }
__kernel void retry(int x)
{
    bool ok;
    do
        ok = write_channel_nb_intel(c_retry, x);
    while (!ok);
}
__kernel void drain(__global int *out) { out[0] = read_channel_intel(c_retry); }
