/* Reading the JSON files of a build (tools/json_read.c): report.json, metadata.json,
 * synth.json and last_run.json, as `clhls report` draws them. */
#ifndef CLHLS_TOOLS_JSON_READ_H
#define CLHLS_TOOLS_JSON_READ_H

#include <cjson/cJSON.h>
#include <stddef.h>

/* o's number, string, true (1) or item at key; fallback (0, NULL) when it has none. */
double json_num(const cJSON *o, const char *key, double fallback);
const char *json_str(const cJSON *o, const char *key, const char *fallback);
int json_flag(const cJSON *o, const char *key);
const cJSON *json_item(const cJSON *o, const char *key);
/* "b0, b2" from a list of block ids. */
void json_block_list(const cJSON *blocks, char *buf, size_t len);
/* "line 3", "lines 3-7" or "no source line", from o's first_line and last_line. */
void json_line_range(const cJSON *o, char *buf, size_t len);

#endif
