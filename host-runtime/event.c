/* The entry points of events and of a queue's synchronisation: waits, queries, profiling
 * times, callbacks, user events, markers, barriers, clFlush and clFinish. They validate
 * and ask the scheduler (sched.c), which owns every event's status and times; markers
 * and barriers are commands without work that the scheduler orders like any other. */
#include "rt.h"

cl_int CL_API_CALL clWaitForEvents(cl_uint n, const cl_event *list)
{
    RT_CHECK(n && list, CL_INVALID_VALUE);
    for (cl_uint i = 0; i < n; i++) {
        RT_CHECK(rt_valid_event(list[i]), CL_INVALID_EVENT);
        RT_CHECK(list[i]->context == list[0]->context, CL_INVALID_CONTEXT);
    }
    cl_int rc = CL_SUCCESS;
    for (cl_uint i = 0; i < n; i++)
        if (rt_event_wait(list[i]) < 0)
            rc = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
    return rc;
}

cl_int CL_API_CALL clGetEventInfo(cl_event e, cl_event_info name, size_t size, void *value,
                                  size_t *size_ret)
{
    RT_CHECK(rt_valid_event(e), CL_INVALID_EVENT);
    cl_int i;
    cl_uint u;
    switch (name) {
    case CL_EVENT_COMMAND_QUEUE:
        return rt_info(size, value, size_ret, &e->queue, sizeof e->queue);
    case CL_EVENT_CONTEXT:
        return rt_info(size, value, size_ret, &e->context, sizeof e->context);
    case CL_EVENT_COMMAND_TYPE:
        return rt_info(size, value, size_ret, &e->type, sizeof e->type);
    case CL_EVENT_COMMAND_EXECUTION_STATUS: {
        uint64_t t;
        i = rt_event_status(e, &t);
        /* The host sees the command finished: on the profiling clock it has ended. */
        if (i <= CL_COMPLETE)
            rt_clock_observe(t);
        return rt_info(size, value, size_ret, &i, sizeof i);
    }
    case CL_EVENT_REFERENCE_COUNT:
        u = rt_refcount(e);
        return rt_info(size, value, size_ret, &u, sizeof u);
    default:
        RT_FAIL(CL_INVALID_VALUE);
    }
}

cl_int CL_API_CALL clRetainEvent(cl_event e)
{
    return rt_api_retain(__func__, e, RT_MAGIC_EVENT, CL_INVALID_EVENT);
}

cl_int CL_API_CALL clReleaseEvent(cl_event e)
{
    return rt_api_release(__func__, e, RT_MAGIC_EVENT, CL_INVALID_EVENT);
}

cl_int CL_API_CALL clGetEventProfilingInfo(cl_event e, cl_profiling_info name, size_t size,
                                           void *value, size_t *size_ret)
{
    RT_CHECK(rt_valid_event(e), CL_INVALID_EVENT);
    RT_CHECK(e->profiling, CL_PROFILING_INFO_NOT_AVAILABLE);
    RT_CHECK(rt_event_status(e, NULL) == CL_COMPLETE, CL_PROFILING_INFO_NOT_AVAILABLE);
    cl_ulong t;
    switch (name) {
    case CL_PROFILING_COMMAND_QUEUED: t = e->t_queued; break;
    case CL_PROFILING_COMMAND_SUBMIT: t = e->t_submit; break;
    case CL_PROFILING_COMMAND_START: t = e->t_start; break;
    case CL_PROFILING_COMMAND_END: t = e->t_end; break;
    case CL_PROFILING_COMMAND_COMPLETE: t = e->t_complete; break;
    default:
        RT_FAIL(CL_INVALID_VALUE);
    }
    return rt_info(size, value, size_ret, &t, sizeof t);
}

cl_int CL_API_CALL clSetEventCallback(cl_event e, cl_int type,
                                      void (CL_CALLBACK *fn)(cl_event, cl_int, void *),
                                      void *data)
{
    RT_CHECK(rt_valid_event(e), CL_INVALID_EVENT);
    RT_CHECK(fn, CL_INVALID_VALUE);
    RT_CHECK(type == CL_SUBMITTED || type == CL_RUNNING || type == CL_COMPLETE,
             CL_INVALID_VALUE);
    rt_event_cb *cb = rt_alloc(sizeof *cb);
    RT_CHECK(cb, CL_OUT_OF_HOST_MEMORY);
    cb->type = type;
    cb->fn = fn;
    cb->data = data;
    rt_event_add_callback(e, cb);
    return CL_SUCCESS;
}

cl_event CL_API_CALL clCreateUserEvent(cl_context c, cl_int *errcode_ret)
{
    RT_CHECK_OBJ(rt_valid_context(c), CL_INVALID_CONTEXT);
    cl_event e = rt_event_create(c, NULL, CL_COMMAND_USER);
    RT_CHECK_OBJ(e, CL_OUT_OF_HOST_MEMORY);
    if (errcode_ret)
        *errcode_ret = CL_SUCCESS;
    return e;
}

cl_int CL_API_CALL clSetUserEventStatus(cl_event e, cl_int status)
{
    RT_CHECK(rt_valid_event(e) && e->type == CL_COMMAND_USER, CL_INVALID_EVENT);
    RT_CHECK(status == CL_COMPLETE || status < 0, CL_INVALID_VALUE);
    RT_CHECK(rt_user_event_set(e, status) == 0, CL_INVALID_OPERATION);
    return CL_SUCCESS;
}

/* ---- synchronisation commands ---- */

static cl_int enqueue_sync(cl_command_queue q, cl_command_type type, cl_uint n,
                           const cl_event *list, cl_event *event)
{
    RT_CHECK(rt_valid_queue(q), CL_INVALID_COMMAND_QUEUE);
    cl_int rc = rt_check_wait_list(q->context, n, list);
    RT_CHECK(rc == CL_SUCCESS, rc);
    rt_command *c = rt_command_new(q, RT_CMD_NONE, type, n, list);
    RT_CHECK(c, CL_OUT_OF_HOST_MEMORY);
    return rt_command_submit(c, 0, event);
}

cl_int CL_API_CALL clEnqueueMarkerWithWaitList(cl_command_queue q, cl_uint n,
                                               const cl_event *list, cl_event *event)
{
    return enqueue_sync(q, CL_COMMAND_MARKER, n, list, event);
}

cl_int CL_API_CALL clEnqueueBarrierWithWaitList(cl_command_queue q, cl_uint n,
                                                const cl_event *list, cl_event *event)
{
    return enqueue_sync(q, CL_COMMAND_BARRIER, n, list, event);
}

cl_int CL_API_CALL clEnqueueMarker(cl_command_queue q, cl_event *event)
{
    RT_CHECK(rt_valid_queue(q), CL_INVALID_COMMAND_QUEUE);
    RT_CHECK(event, CL_INVALID_VALUE);
    return enqueue_sync(q, CL_COMMAND_MARKER, 0, NULL, event);
}

cl_int CL_API_CALL clEnqueueBarrier(cl_command_queue q)
{
    return enqueue_sync(q, CL_COMMAND_BARRIER, 0, NULL, NULL);
}

cl_int CL_API_CALL clEnqueueWaitForEvents(cl_command_queue q, cl_uint n, const cl_event *list)
{
    RT_CHECK(rt_valid_queue(q), CL_INVALID_COMMAND_QUEUE);
    RT_CHECK(n && list, CL_INVALID_VALUE);
    for (cl_uint i = 0; i < n; i++)
        RT_CHECK(rt_valid_event(list[i]), CL_INVALID_EVENT);
    return enqueue_sync(q, CL_COMMAND_BARRIER, n, list, NULL);
}

cl_int CL_API_CALL clFlush(cl_command_queue q)
{
    RT_CHECK(rt_valid_queue(q), CL_INVALID_COMMAND_QUEUE);
    /* Commands reach the device's worker when enqueued. */
    return CL_SUCCESS;
}

cl_int CL_API_CALL clFinish(cl_command_queue q)
{
    RT_CHECK(rt_valid_queue(q), CL_INVALID_COMMAND_QUEUE);
    rt_queue_finish(q);
    return CL_SUCCESS;
}
