/* Reading the JSON files of a build (tools/json_read.h): values with a fallback when
 * a key is missing or of another type, and the few items report.json repeats. */
#include "json_read.h"

#include <stdio.h>

double json_num(const cJSON *o, const char *key, double fallback)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) ? v->valuedouble : fallback;
}

const char *json_str(const cJSON *o, const char *key, const char *fallback)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : fallback;
}

int json_flag(const cJSON *o, const char *key)
{
    return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, key));
}

const cJSON *json_item(const cJSON *o, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(o, key);
}


/* "b0, b2" from a list of block ids. */
void json_block_list(const cJSON *blocks, char *buf, size_t len)
{
    size_t n = 0;
    const cJSON *b;
    buf[0] = '\0';
    cJSON_ArrayForEach(b, blocks)
        if (n + 16 < len)
            n += (size_t)snprintf(buf + n, len - n, "%sb%d", n ? ", " : "", (int)b->valuedouble);
}

/* "line 3", "lines 3-7" or "no source line": the lines of an item of report.json. */
void json_line_range(const cJSON *o, char *buf, size_t len)
{
    int first = (int)json_num(o, "first_line", 0), last = (int)json_num(o, "last_line", 0);
    if (!first)
        snprintf(buf, len, "no source line");
    else if (first == last)
        snprintf(buf, len, "line %d", first);
    else
        snprintf(buf, len, "lines %d-%d", first, last);
}
