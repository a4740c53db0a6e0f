// A host program written with the Khronos C++ bindings (CL/opencl.hpp) as a user
// writes it, run against clhls unchanged: platform and device by name, a program of
// two kernels (a work-group sum in __local memory with barriers, a loop with a
// data-dependent trip count), cl::KernelFunctor launches, a mapped buffer, profiling
// of an event. Results are checked against host references; prints PASSED.
#define CL_HPP_ENABLE_EXCEPTIONS
#define CL_HPP_TARGET_OPENCL_VERSION 120
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#include <CL/opencl.hpp>

#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

static const char *source = R"CLC(
__kernel void group_sums(__global const int *in, __global int *sums, __local int *scratch) {
    size_t lid = get_local_id(0), n = get_local_size(0);
    scratch[lid] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t stride = n / 2; stride > 0; stride /= 2) {
        if (lid < stride)
            scratch[lid] += scratch[lid + stride];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        sums[get_group_id(0)] = scratch[0];
}

__kernel void digit_sums(__global const uint *in, __global uint *out) {
    uint v = in[get_global_id(0)], s = 0;
    while (v) {
        s += v % 10;
        v /= 10;
    }
    out[get_global_id(0)] = s;
}
)CLC";

int main()
{
    try {
        std::vector<cl::Platform> platforms;
        cl::Platform::get(&platforms);
        cl::Platform platform;
        for (auto &p : platforms)
            if (p.getInfo<CL_PLATFORM_NAME>() == "clhls")
                platform = p;
        std::vector<cl::Device> devices;
        platform.getDevices(CL_DEVICE_TYPE_ALL, &devices);
        cl::Device device = devices.at(0);
        std::printf("device: %s\n", device.getInfo<CL_DEVICE_NAME>().c_str());

        cl::Context context(device);
        cl::CommandQueue queue(context, device, CL_QUEUE_PROFILING_ENABLE);
        cl::Program program(context, source);
        try {
            program.build("-cl-std=CL1.2");
        } catch (cl::BuildError &e) {
            for (auto &log : e.getBuildLog())
                std::fprintf(stderr, "%s\n", log.second.c_str());
            throw;
        }

        const size_t n = 4096, group = 256;
        std::vector<int> in(n);
        for (size_t i = 0; i < n; i++)
            in[i] = (int)(i * 7919 % 1000) - 500;
        cl::Buffer in_buf(context, in.begin(), in.end(), true);
        cl::Buffer sums_buf(context, CL_MEM_WRITE_ONLY, n / group * sizeof(int));
        cl::KernelFunctor<cl::Buffer, cl::Buffer, cl::LocalSpaceArg> group_sums(program, "group_sums");
        cl::Event ev = group_sums(cl::EnqueueArgs(queue, cl::NDRange(n), cl::NDRange(group)),
                                  in_buf, sums_buf, cl::Local(group * sizeof(int)));
        ev.wait();
        std::vector<int> sums(n / group);
        cl::copy(queue, sums_buf, sums.begin(), sums.end());
        int failures = 0;
        for (size_t g = 0; g < n / group; g++) {
            int want = std::accumulate(in.begin() + g * group, in.begin() + (g + 1) * group, 0);
            if (sums[g] != want) {
                std::printf("group_sums[%zu] = %d, want %d\n", g, sums[g], want);
                failures++;
            }
        }
        cl_ulong start = ev.getProfilingInfo<CL_PROFILING_COMMAND_START>();
        cl_ulong end = ev.getProfilingInfo<CL_PROFILING_COMMAND_END>();
        std::printf("group_sums: %zu groups of %zu, %.2f us on the device\n", n / group, group,
                    (end - start) / 1e3);

        // digit_sums through a mapped input buffer.
        const size_t m = 1000;
        cl::Buffer digits_in(context, CL_MEM_READ_ONLY | CL_MEM_ALLOC_HOST_PTR, m * sizeof(cl_uint));
        cl::Buffer digits_out(context, CL_MEM_WRITE_ONLY, m * sizeof(cl_uint));
        auto *mapped = static_cast<cl_uint *>(
            queue.enqueueMapBuffer(digits_in, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 0, m * sizeof(cl_uint)));
        for (size_t i = 0; i < m; i++)
            mapped[i] = (cl_uint)(i * 2654435761u);
        std::vector<cl_uint> values(mapped, mapped + m);
        queue.enqueueUnmapMemObject(digits_in, mapped);
        cl::KernelFunctor<cl::Buffer, cl::Buffer> digit_sums(program, "digit_sums");
        digit_sums(cl::EnqueueArgs(queue, cl::NDRange(m)), digits_in, digits_out);
        std::vector<cl_uint> out(m);
        queue.enqueueReadBuffer(digits_out, CL_TRUE, 0, m * sizeof(cl_uint), out.data());
        for (size_t i = 0; i < m; i++) {
            cl_uint v = values[i], want = 0;
            for (; v; v /= 10)
                want += v % 10;
            if (out[i] != want) {
                std::printf("digit_sums[%zu] = %u, want %u\n", i, out[i], want);
                failures++;
            }
        }
        std::printf("%s\n", failures ? "FAILED" : "PASSED");
        return failures ? 1 : 0;
    } catch (cl::Error &e) {
        std::printf("OpenCL error %d in %s\nFAILED\n", e.err(), e.what());
        return 1;
    }
}
