/* The runtime's record of each kernel's last run (host-runtime/last_run.c): a run is
 * written into <entry>/last_run.json with its geometry, cycles, outcome and counters; a
 * second kernel is added beside it, a kernel's next run replaces its entry; a damaged
 * file is replaced by a good one; no entry, or one that cannot be written, records
 * nothing and does not fail; no temporary file is left behind. */
#include <criterion/criterion.h>
#include <cjson/cJSON.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "last_run.h"

static char entry[256];

static void make_entry(void)
{
    snprintf(entry, sizeof entry, "/tmp/clhls-last-run-XXXXXX");
    cr_assert_not_null(mkdtemp(entry));
}

static void remove_entry(void)
{
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", entry);
    cr_assert_eq(system(cmd), 0);
}

TestSuite(last_run, .init = make_entry, .fini = remove_entry);

static const rt_counter counters[] = {{"busy_cycles", 16, 0}, {"work_items", 17, 0}};

static rt_kernel_launch launch(const char *name, uint64_t global)
{
    rt_kernel_launch l;
    memset(&l, 0, sizeof l);
    l.name = name;
    l.work_dim = 1;
    l.global[0] = global;
    l.local[0] = 64;
    l.global[1] = l.global[2] = l.local[1] = l.local[2] = 1;
    l.ncounters = 2;
    l.counters = counters;
    return l;
}

static cJSON *read_record(void)
{
    char path[300];
    snprintf(path, sizeof path, "%s/last_run.json", entry);
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    char buf[8192];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    return cJSON_Parse(buf);
}

static double value(const cJSON *o, const char *a, const char *b, const char *c)
{
    const cJSON *v = cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(o, a), b), c);
    cr_assert(cJSON_IsNumber(v), "no %s.%s.%s", a, b, c);
    return v->valuedouble;
}

/* Files in the entry besides last_run.json. */
static int other_files(void)
{
    int n = 0;
    DIR *d = opendir(entry);
    for (struct dirent *e; d && (e = readdir(d));)
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
             strcmp(e->d_name, "last_run.json");
    if (d)
        closedir(d);
    return n;
}

Test(last_run, records_replaces_and_adds)
{
    rt_kernel_launch a = launch("vadd", 1024);
    uint64_t first[] = {1100, 1024};
    rt_last_run_record(entry, "sim_dc", &a, first, 1101, 1);
    cJSON *r = read_record();
    cr_assert_not_null(r, "no last_run.json");
    const cJSON *run = cJSON_GetObjectItem(cJSON_GetObjectItem(r, "kernels"), "vadd");
    cr_assert_not_null(run);
    cr_assert_eq(value(cJSON_GetObjectItem(r, "kernels"), "vadd", "counters", "busy_cycles"), 1100);
    cr_assert_eq(cJSON_GetObjectItem(run, "cycles")->valuedouble, 1101);
    cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(run, "ok")));
    cr_assert_str_eq(cJSON_GetObjectItem(run, "board")->valuestring, "sim_dc");
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(run, "global")), 1);
    cr_assert_eq(cJSON_GetArrayItem(cJSON_GetObjectItem(run, "global"), 0)->valuedouble, 1024);
    cJSON_Delete(r);

    rt_kernel_launch b = launch("scale", 64);
    uint64_t other[] = {70, 64};
    rt_last_run_record(entry, "sim_dc", &b, other, 71, 0);
    uint64_t second[] = {2200, 2048};
    a.global[0] = 2048;
    rt_last_run_record(entry, "sim_dc", &a, second, 2201, 1);
    /* within a second of the first write: kept in memory until the next flush */
    r = read_record();
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(r, "kernels")), 1, "written at once");
    cr_assert_eq(value(cJSON_GetObjectItem(r, "kernels"), "vadd", "counters", "busy_cycles"), 1100);
    cJSON_Delete(r);
    rt_last_run_flush();
    r = read_record();
    const cJSON *ks = cJSON_GetObjectItem(r, "kernels");
    cr_assert_eq(cJSON_GetArraySize(ks), 2, "two kernels recorded");
    cr_assert_eq(value(ks, "vadd", "counters", "busy_cycles"), 2200, "the last run replaces");
    cr_assert_eq(value(ks, "vadd", "counters", "work_items"), 2048);
    cr_assert_eq(value(ks, "scale", "counters", "busy_cycles"), 70);
    cr_assert(cJSON_IsFalse(cJSON_GetObjectItem(cJSON_GetObjectItem(ks, "scale"), "ok")));
    cJSON_Delete(r);
    cr_assert_eq(other_files(), 0, "a temporary file was left behind");
}

Test(last_run, damaged_file_replaced)
{
    char path[300];
    snprintf(path, sizeof path, "%s/last_run.json", entry);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("{\"kernels\": [1, 2", f);
    fclose(f);
    rt_kernel_launch a = launch("vadd", 256);
    uint64_t values[] = {300, 256};
    rt_last_run_record(entry, "sim_dc", &a, values, 301, 1);
    cJSON *r = read_record();
    cr_assert_not_null(r, "the damaged file stayed");
    cr_assert_eq(value(cJSON_GetObjectItem(r, "kernels"), "vadd", "counters", "busy_cycles"), 300);
    cJSON_Delete(r);
}

Test(last_run, nowhere_to_write)
{
    rt_kernel_launch a = launch("vadd", 256);
    uint64_t values[] = {300, 256};
    rt_last_run_record(NULL, "sim_dc", &a, values, 301, 1); /* no entry: nothing */
    char missing[300];
    snprintf(missing, sizeof missing, "%s/no/such/dir", entry);
    rt_last_run_record(missing, "sim_dc", &a, values, 301, 1);
    cr_assert_eq(access(missing, F_OK), -1);
    if (geteuid() != 0) { /* root writes anywhere */
        cr_assert_eq(chmod(entry, 0500), 0);
        rt_last_run_record(entry, "sim_dc", &a, values, 301, 1);
        cr_assert_eq(chmod(entry, 0700), 0);
    }
    cr_assert_null(read_record(), "recorded without a writable entry");
}
