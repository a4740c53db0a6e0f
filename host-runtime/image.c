/* Images and samplers: the devices have none (CL_DEVICE_IMAGE_SUPPORT is CL_FALSE), so
 * these entry points check the handles they can check and then return what the
 * specification says for a context or queue whose devices do not support images:
 * CL_INVALID_OPERATION for creating an image or a sampler and for every image command,
 * CL_INVALID_MEM_OBJECT for an image query (no memory object is an image) and
 * CL_INVALID_SAMPLER for sampler handles (none can exist). clGetSupportedImageFormats
 * validates its arguments and reports no format. */
#include "rt.h"

static const cl_mem_flags image_flags =
    CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR |
    CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR | CL_MEM_HOST_WRITE_ONLY |
    CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS | CL_MEM_KERNEL_READ_AND_WRITE;

static int image_type(cl_mem_object_type t)
{
    switch (t) {
    case CL_MEM_OBJECT_IMAGE1D:
    case CL_MEM_OBJECT_IMAGE1D_BUFFER:
    case CL_MEM_OBJECT_IMAGE1D_ARRAY:
    case CL_MEM_OBJECT_IMAGE2D:
    case CL_MEM_OBJECT_IMAGE2D_ARRAY:
    case CL_MEM_OBJECT_IMAGE3D:
        return 1;
    default:
        return 0;
    }
}

cl_int CL_API_CALL clGetSupportedImageFormats(cl_context c, cl_mem_flags flags,
                                              cl_mem_object_type type, cl_uint n,
                                              cl_image_format *formats, cl_uint *nret)
{
    RT_CHECK(rt_valid_context(c), CL_INVALID_CONTEXT);
    RT_CHECK(!(flags & ~image_flags), CL_INVALID_VALUE);
    RT_CHECK(image_type(type), CL_INVALID_VALUE);
    RT_CHECK(!(n == 0 && formats), CL_INVALID_VALUE);
    if (nret)
        *nret = 0; /* no image support */
    return CL_SUCCESS;
}

cl_mem CL_API_CALL clCreateImage(cl_context c, cl_mem_flags flags, const cl_image_format *fmt,
                                 const cl_image_desc *desc, void *host_ptr, cl_int *errcode_ret)
{
    RT_CHECK_OBJ(rt_valid_context(c), CL_INVALID_CONTEXT);
    RT_FAIL_OBJ(CL_INVALID_OPERATION); /* no device of the context supports images */
}

cl_mem CL_API_CALL clCreateImage2D(cl_context c, cl_mem_flags flags, const cl_image_format *fmt,
                                   size_t width, size_t height, size_t row_pitch,
                                   void *host_ptr, cl_int *errcode_ret)
{
    RT_CHECK_OBJ(rt_valid_context(c), CL_INVALID_CONTEXT);
    RT_FAIL_OBJ(CL_INVALID_OPERATION);
}

cl_mem CL_API_CALL clCreateImage3D(cl_context c, cl_mem_flags flags, const cl_image_format *fmt,
                                   size_t width, size_t height, size_t depth, size_t row_pitch,
                                   size_t slice_pitch, void *host_ptr, cl_int *errcode_ret)
{
    RT_CHECK_OBJ(rt_valid_context(c), CL_INVALID_CONTEXT);
    RT_FAIL_OBJ(CL_INVALID_OPERATION);
}

/* OpenCL 3.0: the same with a property list, refused the same way. */
cl_mem CL_API_CALL clCreateImageWithProperties(cl_context c, const cl_mem_properties *props,
                                               cl_mem_flags flags, const cl_image_format *fmt,
                                               const cl_image_desc *desc, void *host_ptr,
                                               cl_int *errcode_ret)
{
    RT_CHECK_OBJ(rt_valid_context(c), CL_INVALID_CONTEXT);
    RT_FAIL_OBJ(CL_INVALID_OPERATION);
}

cl_int CL_API_CALL clGetImageInfo(cl_mem image, cl_image_info name, size_t size, void *value,
                                  size_t *size_ret)
{
    RT_FAIL(CL_INVALID_MEM_OBJECT); /* no memory object is an image */
}

cl_sampler CL_API_CALL clCreateSampler(cl_context c, cl_bool normalized,
                                       cl_addressing_mode addressing, cl_filter_mode filter,
                                       cl_int *errcode_ret)
{
    RT_CHECK_OBJ(rt_valid_context(c), CL_INVALID_CONTEXT);
    RT_FAIL_OBJ(CL_INVALID_OPERATION);
}

cl_sampler CL_API_CALL clCreateSamplerWithProperties(cl_context c,
                                                     const cl_sampler_properties *props,
                                                     cl_int *errcode_ret)
{
    RT_CHECK_OBJ(rt_valid_context(c), CL_INVALID_CONTEXT);
    RT_FAIL_OBJ(CL_INVALID_OPERATION);
}

cl_int CL_API_CALL clRetainSampler(cl_sampler s) { RT_FAIL(CL_INVALID_SAMPLER); }

cl_int CL_API_CALL clReleaseSampler(cl_sampler s) { RT_FAIL(CL_INVALID_SAMPLER); }

cl_int CL_API_CALL clGetSamplerInfo(cl_sampler s, cl_sampler_info name, size_t size,
                                    void *value, size_t *size_ret)
{
    RT_FAIL(CL_INVALID_SAMPLER);
}

/* Image commands: a valid queue, then the queue's device has no images. */
#define IMAGE_COMMAND(q)                                                              \
    do {                                                                              \
        RT_CHECK(rt_valid_queue(q), CL_INVALID_COMMAND_QUEUE);                        \
        RT_FAIL(CL_INVALID_OPERATION);                                                \
    } while (0)

cl_int CL_API_CALL clEnqueueReadImage(cl_command_queue q, cl_mem image, cl_bool blocking,
                                      const size_t *origin, const size_t *region,
                                      size_t row_pitch, size_t slice_pitch, void *ptr,
                                      cl_uint n, const cl_event *list, cl_event *event)
{
    IMAGE_COMMAND(q);
}

cl_int CL_API_CALL clEnqueueWriteImage(cl_command_queue q, cl_mem image, cl_bool blocking,
                                       const size_t *origin, const size_t *region,
                                       size_t row_pitch, size_t slice_pitch, const void *ptr,
                                       cl_uint n, const cl_event *list, cl_event *event)
{
    IMAGE_COMMAND(q);
}

cl_int CL_API_CALL clEnqueueFillImage(cl_command_queue q, cl_mem image, const void *color,
                                      const size_t *origin, const size_t *region, cl_uint n,
                                      const cl_event *list, cl_event *event)
{
    IMAGE_COMMAND(q);
}

cl_int CL_API_CALL clEnqueueCopyImage(cl_command_queue q, cl_mem src, cl_mem dst,
                                      const size_t *src_origin, const size_t *dst_origin,
                                      const size_t *region, cl_uint n, const cl_event *list,
                                      cl_event *event)
{
    IMAGE_COMMAND(q);
}

cl_int CL_API_CALL clEnqueueCopyImageToBuffer(cl_command_queue q, cl_mem src, cl_mem dst,
                                              const size_t *src_origin, const size_t *region,
                                              size_t dst_offset, cl_uint n,
                                              const cl_event *list, cl_event *event)
{
    IMAGE_COMMAND(q);
}

cl_int CL_API_CALL clEnqueueCopyBufferToImage(cl_command_queue q, cl_mem src, cl_mem dst,
                                              size_t src_offset, const size_t *dst_origin,
                                              const size_t *region, cl_uint n,
                                              const cl_event *list, cl_event *event)
{
    IMAGE_COMMAND(q);
}

void *CL_API_CALL clEnqueueMapImage(cl_command_queue q, cl_mem image, cl_bool blocking,
                                    cl_map_flags flags, const size_t *origin,
                                    const size_t *region, size_t *row_pitch,
                                    size_t *slice_pitch, cl_uint n, const cl_event *list,
                                    cl_event *event, cl_int *errcode_ret)
{
    RT_CHECK_OBJ(rt_valid_queue(q), CL_INVALID_COMMAND_QUEUE);
    RT_FAIL_OBJ(CL_INVALID_OPERATION);
}
