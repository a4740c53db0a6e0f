/* Table of the OpenCL work-item functions and a minimal demangler for messages. */
#include "builtins.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const hls_workitem_fn workitem_fns[] = {
    {"_Z13get_global_idj", "get_global_id", HOP_TOKEN, HLS_TOK_GLOBAL_ID, 0},
    {"_Z12get_local_idj", "get_local_id", HOP_TOKEN, HLS_TOK_LOCAL_ID, 0},
    {"_Z12get_group_idj", "get_group_id", HOP_TOKEN, HLS_TOK_GROUP_ID, 0},
    {"_Z14get_local_sizej", "get_local_size", HOP_TOKEN, HLS_TOK_GROUP_SIZE, 1},
    {"_Z23get_enqueued_local_sizej", "get_enqueued_local_size", HOP_NDRANGE, HLS_ND_LOCAL_SIZE, 1},
    {"_Z15get_global_sizej", "get_global_size", HOP_NDRANGE, HLS_ND_GLOBAL_SIZE, 1},
    {"_Z14get_num_groupsj", "get_num_groups", HOP_NDRANGE, HLS_ND_NUM_GROUPS, 1},
    {"_Z17get_global_offsetj", "get_global_offset", HOP_NDRANGE, HLS_ND_GLOBAL_OFFSET, 0},
    {"_Z12get_work_dimv", "get_work_dim", HOP_NDRANGE, HLS_ND_WORK_DIM, 0},
};

const hls_workitem_fn *hls_find_workitem_fn(const char *fn_name)
{
    for (size_t i = 0; i < sizeof workitem_fns / sizeof *workitem_fns; i++)
        if (!strcmp(workitem_fns[i].mangled, fn_name))
            return &workitem_fns[i];
    return NULL;
}

const char *hls_demangle(const char *mangled, char *buf, size_t size)
{
    if (strncmp(mangled, "_Z", 2)) {
        snprintf(buf, size, "%s", mangled);
        return buf;
    }
    char *end;
    long len = strtol(mangled + 2, &end, 10);
    if (len <= 0 || (size_t)len > strlen(end)) {
        snprintf(buf, size, "%s", mangled);
        return buf;
    }
    snprintf(buf, size, "%.*s", (int)len, end);
    return buf;
}
