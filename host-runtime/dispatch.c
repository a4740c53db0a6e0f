/* The ICD dispatch table: every entry of cl_icd_dispatch (CL/cl_icd.h) points either to
 * the runtime's implementation or to a stub below that returns CL_INVALID_OPERATION (or
 * NULL with *errcode_ret set) for what the runtime does not implement, so the loader
 * never finds a NULL entry it could call. The stubs were generated once from the
 * typedefs in CL/cl_icd.h (OpenCL headers 2022+); entries that exist only on Windows
 * (Direct3D, DX9 media sharing) are `void *` on Linux and stay NULL. Images and
 * samplers are in image.c: the devices have none, and the specification says what each
 * entry point then returns. For the OpenCL 3.0 entry points of features the devices
 * lack (SVM, device queues, sub-groups, intermediate languages, program-scope global
 * variables, device and host timers) CL_INVALID_OPERATION is the error the
 * specification gives; the timer and program-release stubs check their handle first.
 * Pipes are memory objects (memory.c). */
#include "rt.h"

/* ---- stubs for what the runtime does not implement ---- */

static cl_int CL_API_CALL stub_clSetCommandQueueProperty(cl_command_queue command_queue, cl_command_queue_properties properties, cl_bool enable, cl_command_queue_properties *old_properties)
{
    return CL_INVALID_OPERATION;
}

static cl_int CL_API_CALL stub_clEnqueueNativeKernel(cl_command_queue command_queue, void(CL_CALLBACK *user_func)(void *), void *args, size_t cb_args, cl_uint num_mem_objects, const cl_mem *mem_list, const void **args_mem_loc, cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
{
    return CL_INVALID_OPERATION;
}

static cl_mem CL_API_CALL stub_clCreateFromGLBuffer(cl_context context, cl_mem_flags flags, cl_GLuint bufobj, int *errcode_ret)
{
    if (errcode_ret)
        *errcode_ret = CL_INVALID_OPERATION;
    return NULL;
}

static cl_mem CL_API_CALL stub_clCreateFromGLTexture2D(cl_context context, cl_mem_flags flags, cl_GLenum target, cl_GLint miplevel, cl_GLuint texture, cl_int *errcode_ret)
{
    if (errcode_ret)
        *errcode_ret = CL_INVALID_OPERATION;
    return NULL;
}

static cl_mem CL_API_CALL stub_clCreateFromGLTexture3D(cl_context context, cl_mem_flags flags, cl_GLenum target, cl_GLint miplevel, cl_GLuint texture, cl_int *errcode_ret)
{
    if (errcode_ret)
        *errcode_ret = CL_INVALID_OPERATION;
    return NULL;
}

static cl_mem CL_API_CALL stub_clCreateFromGLRenderbuffer(cl_context context, cl_mem_flags flags, cl_GLuint renderbuffer, cl_int *errcode_ret)
{
    if (errcode_ret)
        *errcode_ret = CL_INVALID_OPERATION;
    return NULL;
}

static cl_int CL_API_CALL stub_clGetGLObjectInfo(cl_mem memobj, cl_gl_object_type *gl_object_type, cl_GLuint *gl_object_name)
{
    return CL_INVALID_OPERATION;
}

static cl_int CL_API_CALL stub_clGetGLTextureInfo(cl_mem memobj, cl_gl_texture_info param_name, size_t param_value_size, void *param_value, size_t *param_value_size_ret)
{
    return CL_INVALID_OPERATION;
}

static cl_int CL_API_CALL stub_clEnqueueAcquireGLObjects(cl_command_queue command_queue, cl_uint num_objects, const cl_mem *mem_objects, cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
{
    return CL_INVALID_OPERATION;
}

static cl_int CL_API_CALL stub_clEnqueueReleaseGLObjects(cl_command_queue command_queue, cl_uint num_objects, const cl_mem *mem_objects, cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
{
    return CL_INVALID_OPERATION;
}

static cl_int CL_API_CALL stub_clGetGLContextInfoKHR(const cl_context_properties *properties, cl_gl_context_info param_name, size_t param_value_size, void *param_value, size_t *param_value_size_ret)
{
    return CL_INVALID_OPERATION;
}




static cl_int CL_API_CALL stub_clCreateSubDevicesEXT(cl_device_id in_device, const cl_device_partition_property_ext *partition_properties, cl_uint num_entries, cl_device_id *out_devices, cl_uint *num_devices)
{
    return CL_INVALID_OPERATION;
}

static cl_int CL_API_CALL stub_clRetainDeviceEXT(cl_device_id device)
{
    return CL_INVALID_OPERATION;
}

static cl_int CL_API_CALL stub_clReleaseDeviceEXT(cl_device_id device)
{
    return CL_INVALID_OPERATION;
}

static cl_event CL_API_CALL stub_clCreateEventFromGLsyncKHR(cl_context context, cl_GLsync sync, cl_int *errcode_ret)
{
    if (errcode_ret)
        *errcode_ret = CL_INVALID_OPERATION;
    return NULL;
}


static cl_mem CL_API_CALL stub_clCreateFromGLTexture(cl_context context, cl_mem_flags flags, cl_GLenum target, cl_GLint miplevel, cl_GLuint texture, cl_int *errcode_ret)
{
    if (errcode_ret)
        *errcode_ret = CL_INVALID_OPERATION;
    return NULL;
}

static cl_mem CL_API_CALL stub_clCreateFromEGLImageKHR(cl_context context, CLeglDisplayKHR display, CLeglImageKHR image, cl_mem_flags flags, const cl_egl_image_properties_khr *properties, cl_int *errcode_ret)
{
    if (errcode_ret)
        *errcode_ret = CL_INVALID_OPERATION;
    return NULL;
}

static cl_int CL_API_CALL stub_clEnqueueAcquireEGLObjectsKHR(cl_command_queue command_queue, cl_uint num_objects, const cl_mem *mem_objects, cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
{
    return CL_INVALID_OPERATION;
}

static cl_int CL_API_CALL stub_clEnqueueReleaseEGLObjectsKHR(cl_command_queue command_queue, cl_uint num_objects, const cl_mem *mem_objects, cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
{
    return CL_INVALID_OPERATION;
}

static cl_event CL_API_CALL stub_clCreateEventFromEGLSyncKHR(cl_context context, CLeglSyncKHR sync, CLeglDisplayKHR display, cl_int *errcode_ret)
{
    if (errcode_ret)
        *errcode_ret = CL_INVALID_OPERATION;
    return NULL;
}

static void * CL_API_CALL stub_clSVMAlloc(cl_context context, cl_svm_mem_flags flags, size_t size, unsigned int alignment)
{
    return NULL;
}

static void CL_API_CALL stub_clSVMFree(cl_context context, void * svm_pointer)
{
    return;
}

static cl_int CL_API_CALL stub_clEnqueueSVMFree(cl_command_queue command_queue, cl_uint num_svm_pointers, void ** svm_pointers, void(CL_CALLBACK *pfn_free_func)(cl_command_queue queue, cl_uint num_svm_pointers, void ** /* svm_pointers[] */, void * user_data), void * user_data, cl_uint num_events_in_wait_list, const cl_event * event_wait_list, cl_event * event)
{
    return CL_INVALID_OPERATION;
}

static cl_int CL_API_CALL stub_clEnqueueSVMMemcpy(cl_command_queue command_queue, cl_bool blocking_copy, void * dst_ptr, const void * src_ptr, size_t size, cl_uint num_events_in_wait_list, const cl_event * event_wait_list, cl_event * event)
{
    return CL_INVALID_OPERATION;
}

static cl_int CL_API_CALL stub_clEnqueueSVMMemFill(cl_command_queue command_queue, void * svm_ptr, const void * pattern, size_t pattern_size, size_t size, cl_uint num_events_in_wait_list, const cl_event * event_wait_list, cl_event * event)
{
    return CL_INVALID_OPERATION;
}

static cl_int CL_API_CALL stub_clEnqueueSVMMap(cl_command_queue command_queue, cl_bool blocking_map, cl_map_flags map_flags, void * svm_ptr, size_t size, cl_uint num_events_in_wait_list, const cl_event * event_wait_list, cl_event * event)
{
    return CL_INVALID_OPERATION;
}

static cl_int CL_API_CALL stub_clEnqueueSVMUnmap(cl_command_queue command_queue, void * svm_ptr, cl_uint num_events_in_wait_list, const cl_event * event_wait_list, cl_event * event)
{
    return CL_INVALID_OPERATION;
}

static cl_int CL_API_CALL stub_clSetKernelArgSVMPointer(cl_kernel kernel, cl_uint arg_index, const void * arg_value)
{
    return CL_INVALID_OPERATION;
}

static cl_int CL_API_CALL stub_clSetKernelExecInfo(cl_kernel kernel, cl_kernel_exec_info param_name, size_t param_value_size, const void * param_value)
{
    return CL_INVALID_OPERATION;
}

static cl_int CL_API_CALL stub_clGetKernelSubGroupInfoKHR(cl_kernel in_kernel, cl_device_id /*in_device*/, cl_kernel_sub_group_info param_name, size_t /*input_value_size*/, const void * /*input_value*/, size_t /*param_value_size*/, void * /*param_value*/, size_t * /*param_value_size_ret*/)
{
    return CL_INVALID_OPERATION;
}

static cl_program CL_API_CALL stub_clCreateProgramWithIL(cl_context context, const void *il, size_t length, cl_int *errcode_ret)
{
    if (errcode_ret)
        *errcode_ret = CL_INVALID_OPERATION;
    return NULL;
}

static cl_int CL_API_CALL stub_clEnqueueSVMMigrateMem(cl_command_queue command_queue, cl_uint num_svm_pointers, const void **svm_pointers, const size_t *sizes, cl_mem_migration_flags flags, cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
{
    return CL_INVALID_OPERATION;
}

/* CL_PLATFORM_HOST_TIMER_RESOLUTION is 0: no device and host timer synchronization. */
static cl_int CL_API_CALL stub_clGetDeviceAndHostTimer(cl_device_id device, cl_ulong *device_timestamp, cl_ulong *host_timestamp)
{
    RT_CHECK(rt_valid_device(device), CL_INVALID_DEVICE);
    return CL_INVALID_OPERATION;
}

static cl_int CL_API_CALL stub_clGetHostTimer(cl_device_id device, cl_ulong *host_timestamp)
{
    RT_CHECK(rt_valid_device(device), CL_INVALID_DEVICE);
    return CL_INVALID_OPERATION;
}

static cl_int CL_API_CALL stub_clGetKernelSubGroupInfo(cl_kernel kernel, cl_device_id device, cl_kernel_sub_group_info param_name, size_t input_value_size, const void *input_value, size_t param_value_size, void *param_value, size_t *param_value_size_ret)
{
    return CL_INVALID_OPERATION;
}

static cl_int CL_API_CALL stub_clSetDefaultDeviceCommandQueue(cl_context context, cl_device_id device, cl_command_queue command_queue)
{
    return CL_INVALID_OPERATION;
}

/* No device supports destructors for program-scope global variables (no device has
 * such variables): OpenCL 3.0 lets this return CL_INVALID_OPERATION unconditionally. */
static cl_int CL_API_CALL stub_clSetProgramReleaseCallback(cl_program program, void(CL_CALLBACK *pfn_notify)(cl_program program, void *user_data), void *user_data)
{
    RT_CHECK(rt_valid_program(program), CL_INVALID_PROGRAM);
    return CL_INVALID_OPERATION;
}

static cl_int CL_API_CALL stub_clSetProgramSpecializationConstant(cl_program program, cl_uint spec_id, size_t spec_size, const void *spec_value)
{
    return CL_INVALID_OPERATION;
}

/* The one dispatch table; every object of the runtime points to it. */
cl_icd_dispatch rt_dispatch = {
    .clGetPlatformIDs = clGetPlatformIDs,
    .clGetPlatformInfo = rt_get_platform_info,
    .clGetDeviceIDs = clGetDeviceIDs,
    .clGetDeviceInfo = clGetDeviceInfo,
    .clCreateContext = clCreateContext,
    .clCreateContextFromType = clCreateContextFromType,
    .clRetainContext = clRetainContext,
    .clReleaseContext = clReleaseContext,
    .clGetContextInfo = clGetContextInfo,
    .clCreateCommandQueue = clCreateCommandQueue,
    .clRetainCommandQueue = clRetainCommandQueue,
    .clReleaseCommandQueue = clReleaseCommandQueue,
    .clGetCommandQueueInfo = clGetCommandQueueInfo,
    .clSetCommandQueueProperty = stub_clSetCommandQueueProperty,
    .clCreateBuffer = clCreateBuffer,
    .clCreateImage2D = clCreateImage2D,
    .clCreateImage3D = clCreateImage3D,
    .clRetainMemObject = clRetainMemObject,
    .clReleaseMemObject = clReleaseMemObject,
    .clGetSupportedImageFormats = clGetSupportedImageFormats,
    .clGetMemObjectInfo = clGetMemObjectInfo,
    .clGetImageInfo = clGetImageInfo,
    .clCreateSampler = clCreateSampler,
    .clRetainSampler = clRetainSampler,
    .clReleaseSampler = clReleaseSampler,
    .clGetSamplerInfo = clGetSamplerInfo,
    .clCreateProgramWithSource = clCreateProgramWithSource,
    .clCreateProgramWithBinary = clCreateProgramWithBinary,
    .clRetainProgram = clRetainProgram,
    .clReleaseProgram = clReleaseProgram,
    .clBuildProgram = clBuildProgram,
    .clUnloadCompiler = clUnloadCompiler,
    .clGetProgramInfo = clGetProgramInfo,
    .clGetProgramBuildInfo = clGetProgramBuildInfo,
    .clCreateKernel = clCreateKernel,
    .clCreateKernelsInProgram = clCreateKernelsInProgram,
    .clRetainKernel = clRetainKernel,
    .clReleaseKernel = clReleaseKernel,
    .clSetKernelArg = clSetKernelArg,
    .clGetKernelInfo = clGetKernelInfo,
    .clGetKernelWorkGroupInfo = clGetKernelWorkGroupInfo,
    .clWaitForEvents = clWaitForEvents,
    .clGetEventInfo = clGetEventInfo,
    .clRetainEvent = clRetainEvent,
    .clReleaseEvent = clReleaseEvent,
    .clGetEventProfilingInfo = clGetEventProfilingInfo,
    .clFlush = clFlush,
    .clFinish = clFinish,
    .clEnqueueReadBuffer = clEnqueueReadBuffer,
    .clEnqueueWriteBuffer = clEnqueueWriteBuffer,
    .clEnqueueCopyBuffer = clEnqueueCopyBuffer,
    .clEnqueueReadImage = clEnqueueReadImage,
    .clEnqueueWriteImage = clEnqueueWriteImage,
    .clEnqueueCopyImage = clEnqueueCopyImage,
    .clEnqueueCopyImageToBuffer = clEnqueueCopyImageToBuffer,
    .clEnqueueCopyBufferToImage = clEnqueueCopyBufferToImage,
    .clEnqueueMapBuffer = clEnqueueMapBuffer,
    .clEnqueueMapImage = clEnqueueMapImage,
    .clEnqueueUnmapMemObject = clEnqueueUnmapMemObject,
    .clEnqueueNDRangeKernel = clEnqueueNDRangeKernel,
    .clEnqueueTask = clEnqueueTask,
    .clEnqueueNativeKernel = stub_clEnqueueNativeKernel,
    .clEnqueueMarker = clEnqueueMarker,
    .clEnqueueWaitForEvents = clEnqueueWaitForEvents,
    .clEnqueueBarrier = clEnqueueBarrier,
    .clGetExtensionFunctionAddress = rt_get_extension_function_address,
    .clCreateFromGLBuffer = stub_clCreateFromGLBuffer,
    .clCreateFromGLTexture2D = stub_clCreateFromGLTexture2D,
    .clCreateFromGLTexture3D = stub_clCreateFromGLTexture3D,
    .clCreateFromGLRenderbuffer = stub_clCreateFromGLRenderbuffer,
    .clGetGLObjectInfo = stub_clGetGLObjectInfo,
    .clGetGLTextureInfo = stub_clGetGLTextureInfo,
    .clEnqueueAcquireGLObjects = stub_clEnqueueAcquireGLObjects,
    .clEnqueueReleaseGLObjects = stub_clEnqueueReleaseGLObjects,
    .clGetGLContextInfoKHR = stub_clGetGLContextInfoKHR,
    /* .clGetDeviceIDsFromD3D10KHR: Windows-only, void * on Linux */
    /* .clCreateFromD3D10BufferKHR: Windows-only, void * on Linux */
    /* .clCreateFromD3D10Texture2DKHR: Windows-only, void * on Linux */
    /* .clCreateFromD3D10Texture3DKHR: Windows-only, void * on Linux */
    /* .clEnqueueAcquireD3D10ObjectsKHR: Windows-only, void * on Linux */
    /* .clEnqueueReleaseD3D10ObjectsKHR: Windows-only, void * on Linux */
    .clSetEventCallback = clSetEventCallback,
    .clCreateSubBuffer = clCreateSubBuffer,
    .clSetMemObjectDestructorCallback = clSetMemObjectDestructorCallback,
    .clCreateUserEvent = clCreateUserEvent,
    .clSetUserEventStatus = clSetUserEventStatus,
    .clEnqueueReadBufferRect = clEnqueueReadBufferRect,
    .clEnqueueWriteBufferRect = clEnqueueWriteBufferRect,
    .clEnqueueCopyBufferRect = clEnqueueCopyBufferRect,
    .clCreateSubDevicesEXT = stub_clCreateSubDevicesEXT,
    .clRetainDeviceEXT = stub_clRetainDeviceEXT,
    .clReleaseDeviceEXT = stub_clReleaseDeviceEXT,
    .clCreateEventFromGLsyncKHR = stub_clCreateEventFromGLsyncKHR,
    .clCreateSubDevices = clCreateSubDevices,
    .clRetainDevice = clRetainDevice,
    .clReleaseDevice = clReleaseDevice,
    .clCreateImage = clCreateImage,
    .clCreateProgramWithBuiltInKernels = clCreateProgramWithBuiltInKernels,
    .clCompileProgram = clCompileProgram,
    .clLinkProgram = clLinkProgram,
    .clUnloadPlatformCompiler = clUnloadPlatformCompiler,
    .clGetKernelArgInfo = clGetKernelArgInfo,
    .clEnqueueFillBuffer = clEnqueueFillBuffer,
    .clEnqueueFillImage = clEnqueueFillImage,
    .clEnqueueMigrateMemObjects = clEnqueueMigrateMemObjects,
    .clEnqueueMarkerWithWaitList = clEnqueueMarkerWithWaitList,
    .clEnqueueBarrierWithWaitList = clEnqueueBarrierWithWaitList,
    .clGetExtensionFunctionAddressForPlatform = rt_get_extension_function_address_for_platform,
    .clCreateFromGLTexture = stub_clCreateFromGLTexture,
    /* .clGetDeviceIDsFromD3D11KHR: Windows-only, void * on Linux */
    /* .clCreateFromD3D11BufferKHR: Windows-only, void * on Linux */
    /* .clCreateFromD3D11Texture2DKHR: Windows-only, void * on Linux */
    /* .clCreateFromD3D11Texture3DKHR: Windows-only, void * on Linux */
    /* .clCreateFromDX9MediaSurfaceKHR: Windows-only, void * on Linux */
    /* .clEnqueueAcquireD3D11ObjectsKHR: Windows-only, void * on Linux */
    /* .clEnqueueReleaseD3D11ObjectsKHR: Windows-only, void * on Linux */
    /* .clGetDeviceIDsFromDX9MediaAdapterKHR: Windows-only, void * on Linux */
    /* .clEnqueueAcquireDX9MediaSurfacesKHR: Windows-only, void * on Linux */
    /* .clEnqueueReleaseDX9MediaSurfacesKHR: Windows-only, void * on Linux */
    .clCreateFromEGLImageKHR = stub_clCreateFromEGLImageKHR,
    .clEnqueueAcquireEGLObjectsKHR = stub_clEnqueueAcquireEGLObjectsKHR,
    .clEnqueueReleaseEGLObjectsKHR = stub_clEnqueueReleaseEGLObjectsKHR,
    .clCreateEventFromEGLSyncKHR = stub_clCreateEventFromEGLSyncKHR,
    .clCreateCommandQueueWithProperties = clCreateCommandQueueWithProperties,
    .clCreatePipe = clCreatePipe,
    .clGetPipeInfo = clGetPipeInfo,
    .clSVMAlloc = stub_clSVMAlloc,
    .clSVMFree = stub_clSVMFree,
    .clEnqueueSVMFree = stub_clEnqueueSVMFree,
    .clEnqueueSVMMemcpy = stub_clEnqueueSVMMemcpy,
    .clEnqueueSVMMemFill = stub_clEnqueueSVMMemFill,
    .clEnqueueSVMMap = stub_clEnqueueSVMMap,
    .clEnqueueSVMUnmap = stub_clEnqueueSVMUnmap,
    .clCreateSamplerWithProperties = clCreateSamplerWithProperties,
    .clSetKernelArgSVMPointer = stub_clSetKernelArgSVMPointer,
    .clSetKernelExecInfo = stub_clSetKernelExecInfo,
    .clGetKernelSubGroupInfoKHR = stub_clGetKernelSubGroupInfoKHR,
    .clCloneKernel = clCloneKernel,
    .clCreateProgramWithIL = stub_clCreateProgramWithIL,
    .clEnqueueSVMMigrateMem = stub_clEnqueueSVMMigrateMem,
    .clGetDeviceAndHostTimer = stub_clGetDeviceAndHostTimer,
    .clGetHostTimer = stub_clGetHostTimer,
    .clGetKernelSubGroupInfo = stub_clGetKernelSubGroupInfo,
    .clSetDefaultDeviceCommandQueue = stub_clSetDefaultDeviceCommandQueue,
    .clSetProgramReleaseCallback = stub_clSetProgramReleaseCallback,
    .clSetProgramSpecializationConstant = stub_clSetProgramSpecializationConstant,
    .clCreateBufferWithProperties = clCreateBufferWithProperties,
    .clCreateImageWithProperties = clCreateImageWithProperties,
    .clSetContextDestructorCallback = clSetContextDestructorCallback,
};
