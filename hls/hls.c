/* The build driver: computes the cache key, and on a miss runs the compiler's passes
 * in order, writes the Verilog and the metadata, and has the caller's model step
 * (hls_model_step: the simulator bridge's Verilator build, which the compiler does not
 * link) build the model — all in a scratch directory inside the cache that is renamed
 * into place only when whole, its manifest (common/manifest.h) written last, so
 * concurrent builds and crashes never leave half an entry. A hit is used only when the
 * manifest checks; a damaged entry is moved aside and rebuilt, and the log says why.
 *
 * Relative -I directories of the options are made absolute first, against this
 * process's working directory (the host program's: the runtime's child inherits it),
 * since clang runs in the scratch directory. The headers a source includes are part of
 * the key, ccache's "manifest mode": the key of the request (toolchain, board,
 * options, source) names an entry only for a source that includes no header of the
 * user's (clang's own headers are the toolchain's). For one that does, clang lists
 * what it read (-MMD) and the entry is named by a second key, the first one plus the
 * path and contents of every header listed; the list goes beside, in inc-KEY (one
 * path a line), so that a later build hashes those files as they are now and finds
 * the entry of the same contents without running clang. A header changed makes a new
 * entry; changed back, the old one is found again. A header changed while its build
 * ran (modified at or after the build began) may not be what clang read: that entry
 * gets a key of its own that nothing finds again, and the list is not written. A
 * header that would now be found first in another directory of the search is not
 * noticed (as in ccache). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <glob.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>

#include "alloc.h"
#include "manifest.h"
#include "passes.h"

#ifndef CLHLS_VERSION
#define CLHLS_VERSION "0.1.0"
#endif
#ifndef CLHLS_RTL_DIR
#define CLHLS_RTL_DIR "rtl-templates"
#endif

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int hash_file(XXH3_state_t *state, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    enum { CHUNK = 65536 }; /* on the heap: the compiler's stack use stays small */
    char *buf = hls_alloc(CHUNK);
    size_t n;
    while ((n = fread(buf, 1, CHUNK, f)) > 0)
        XXH3_128bits_update(state, buf, n);
    free(buf);
    fclose(f);
    return 0;
}

const char *hls_template_dir(void)
{
    const char *dirs[] = {getenv("CLHLS_RTL_DIR"), CLHLS_RTL_DIR, CLHLS_DATA_DIR "/rtl"};
    for (size_t d = 0; d < sizeof dirs / sizeof *dirs; d++) {
        if (!dirs[d] || !*dirs[d])
            continue;
        char pattern[4096];
        snprintf(pattern, sizeof pattern, "%s/clhls_*.v", dirs[d]);
        glob_t g;
        int found = glob(pattern, 0, NULL, &g) == 0;
        if (found)
            globfree(&g);
        if (found)
            return dirs[d];
    }
    return NULL;
}

/* The Verilog templates (every clhls_*.EXT of the template directory: "v" the
 * modules, "vh" the files they include), NULL-terminated and sorted; NULL when there
 * is none. */
static char **template_files(const char *ext)
{
    const char *dir = hls_template_dir();
    if (!dir)
        return NULL;
    char pattern[4096];
    snprintf(pattern, sizeof pattern, "%s/clhls_*.%s", dir, ext);
    glob_t g;
    if (glob(pattern, 0, NULL, &g) != 0)
        return NULL;
    char **files = hls_alloc((g.gl_pathc + 1) * sizeof *files);
    for (size_t i = 0; i < g.gl_pathc; i++)
        files[i] = hls_strdup(g.gl_pathv[i]);
    globfree(&g);
    return files;
}

static void free_list(char **list)
{
    for (char **p = list; p && *p; p++)
        free(*p);
    free(list);
}

/* Hash of everything that makes this compiler what it is: its own code (the shared
 * object holding it), the RTL templates and their include files, and the built-in
 * library. Computed once per process; the key adds the files the request's model step
 * compiles (build_key). */
static XXH128_hash_t toolchain;
static pthread_once_t toolchain_once = PTHREAD_ONCE_INIT;

static void hash_toolchain(void)
{
    XXH3_state_t *state = XXH3_createState();
    XXH3_128bits_reset(state);
    XXH3_128bits_update(state, CLHLS_VERSION, strlen(CLHLS_VERSION));
    /* For a program linked with the compiler, dladdr names the executable as it was
     * started (a relative path that a later chdir breaks): /proc/self/exe then. */
    Dl_info info;
    if (!dladdr((void *)hls_build, &info) || !info.dli_fname ||
        hash_file(state, info.dli_fname))
        hash_file(state, "/proc/self/exe");
    for (int inc = 0; inc < 2; inc++) {
        char **templates = template_files(inc ? "vh" : "v");
        for (char **p = templates; p && *p; p++)
            hash_file(state, *p);
        free_list(templates);
    }
    hash_file(state, hls_library_path());
    toolchain = XXH3_128bits_digest(state);
    XXH3_freeState(state);
}

/* 1 when the request builds no model: asked not to, or no model step to build it. */
static int no_model(const hls_build_request *req)
{
    return req->skip_model || !req->model;
}

static void build_key(const hls_build_request *req, char out[33])
{
    XXH3_state_t *state = XXH3_createState();
    XXH3_128bits_reset(state);
    pthread_once(&toolchain_once, hash_toolchain);
    XXH3_128bits_update(state, &toolchain, sizeof toolchain);
    /* The rest of the toolchain: what the model step compiles into every model (the
     * simulator's harness and operator models, as it finds them). */
    if (req->model) {
        strbuf paths = {0};
        sb_append(&paths, "");
        req->model->sources(req->model_ctx, &paths);
        for (char *line = paths.data, *next; *line; line = next) {
            next = line + strcspn(line, "\n");
            if (*next)
                *next++ = '\0';
            hash_file(state, line);
        }
        sb_free(&paths);
    }
    if (hash_file(state, req->board->path))
        XXH3_128bits_update(state, req->board->name, strlen(req->board->name));
    const char *parts[] = {req->options ? req->options : "", req->source ? req->source : "",
                           req->source_name ? req->source_name : "",
                           no_model(req) ? "no-model" : "model"};
    for (size_t i = 0; i < 4; i++)
        XXH3_128bits_update(state, parts[i], strlen(parts[i]) + 1);
    /* A link: the inputs' contents, in order (a missing one fails the build later). */
    for (const char *const *in = req->inputs; in && *in; in++) {
        XXH3_128bits_update(state, "input", 6);
        hash_file(state, *in);
    }
    XXH128_hash_t h = XXH3_128bits_digest(state);
    XXH3_freeState(state);
    snprintf(out, 33, "%016llx%016llx", (unsigned long long)h.high64,
             (unsigned long long)h.low64);
}

/* ---- relative include directories ---- */

static int option_space(char c) { return c == ' ' || c == '\t' || c == '\n'; }

/* Appends dir as one word of the options: as it is, or in quotes (which
 * hls_parse_options takes away) when it holds a blank or a quote; 0, or -1 when it
 * holds both kinds of quote. */
static int append_word(strbuf *out, const char *dir)
{
    if (!strpbrk(dir, " \t\n\"'")) {
        sb_append(out, dir);
        return 0;
    }
    char q = !strchr(dir, '"') ? '"' : !strchr(dir, '\'') ? '\'' : 0;
    if (!q)
        return -1;
    sb_printf(out, "%c%s%c", q, dir, q);
    return 0;
}

/* The options with every relative directory of -I DIR and -IDIR (quoted or not) made
 * absolute against the working directory; the rest as it is. The words as
 * hls_parse_options splits them: blanks separate, quotes group and are dropped, the
 * word after -D or -I is that option's. */
static char *absolute_includes(const char *options)
{
    char cwd[4096];
    int have_cwd = getcwd(cwd, sizeof cwd) != NULL;
    strbuf out = {0};
    sb_append(&out, "");
    const char *s = options ? options : "";
    int next_is = 0; /* 'D' or 'I': the word is that option's argument */
    while (*s) {
        if (option_space(*s)) {
            sb_appendn(&out, s++, 1);
            continue;
        }
        const char *start = s;
        strbuf word = {0};
        sb_append(&word, "");
        char quote = 0;
        for (; *s && (quote || !option_space(*s)); s++) {
            if (!quote && (*s == '"' || *s == '\''))
                quote = *s;
            else if (quote && *s == quote)
                quote = 0;
            else
                sb_appendn(&word, s, 1);
        }
        const char *dir = NULL, *prefix = "";
        if (next_is) {
            dir = next_is == 'I' ? word.data : NULL;
            next_is = 0;
        } else if (!strcmp(word.data, "-D") || !strcmp(word.data, "-I")) {
            next_is = word.data[1];
        } else if (!strncmp(word.data, "-I", 2)) {
            dir = word.data + 2;
            prefix = "-I";
        }
        int done = 0;
        if (dir && *dir && *dir != '/' && have_cwd) {
            /* As `clhls build -I DIR` writes it (tools/cli.c), so that both make one
             * key. */
            strbuf path = {0};
            sb_printf(&path, "%s/%s", cwd, dir);
            size_t mark = out.len;
            sb_append(&out, prefix);
            done = append_word(&out, path.data) == 0;
            if (!done) { /* as it was */
                out.len = mark;
                out.data[mark] = '\0';
            }
            sb_free(&path);
        }
        if (!done)
            sb_appendn(&out, start, (size_t)(s - start));
        sb_free(&word);
    }
    return sb_take(&out);
}

/* ---- the headers a build read ---- */

#define DEPS_FILE "clhls-deps.d" /* clang's list of what it read, in the scratch dir */
#define INCLUDES_PREFIX "inc-"   /* the cache's lists of headers: inc-KEY */

/* The name of clang's list in the scratch directory: a source named like it has the
 * list take another. */
static const char *deps_name(const char *source_name)
{
    return strcmp(source_name, DEPS_FILE) ? DEPS_FILE : "clhls-deps-.d";
}

/* Has clang write the user headers the source includes (-MMD: not clang's own) into
 * the scratch directory. */
static void ask_for_headers(hls_compile *c)
{
    int n = c->opts.nclang_args;
    const char **args = arena_alloc(&c->arena, (size_t)(n + 3) * sizeof *args);
    if (n)
        memcpy(args, c->opts.clang_args, (size_t)n * sizeof *args);
    args[n++] = "-MMD";
    args[n++] = "-MF";
    args[n++] = arena_printf(&c->arena, "%s/%s", c->work_dir, deps_name(c->source_name));
    c->opts.clang_args = args;
    c->opts.nclang_args = n;
}

/* The files a make rule lists (clang's -MF output: "target: dep dep \<newline> dep"
 * with blanks and # escaped by a backslash and $ doubled), made absolute against dir
 * (clang's working directory), without the ones inside dir (the source, the headers
 * the compiler writes there): one per line. */
static char *rule_files(const char *text, const char *dir)
{
    strbuf out = {0};
    sb_append(&out, "");
    const char *s = strchr(text, ':');
    while (s && *s == ':' && s[1] && !option_space(s[1]))
        s = strchr(s + 1, ':'); /* a colon inside the target's name */
    if (!s)
        return sb_take(&out);
    s++;
    size_t dlen = strlen(dir);
    for (;;) {
        while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' ||
               (*s == '\\' && (s[1] == '\n' || (s[1] == '\r' && s[2] == '\n'))))
            s += *s == '\\' ? (s[1] == '\r' ? 3 : 2) : 1;
        if (!*s)
            break;
        strbuf name = {0};
        sb_append(&name, "");
        for (; *s && !option_space(*s) && *s != '\r'; s++) {
            if (*s == '\\' && (s[1] == ' ' || s[1] == '#' || s[1] == '\\'))
                s++;
            else if (*s == '\\' && (s[1] == '\n' || s[1] == '\r'))
                break;
            else if (*s == '$' && s[1] == '$')
                s++;
            sb_appendn(&name, s, 1);
        }
        strbuf path = {0};
        if (name.data[0] == '/')
            sb_append(&path, name.data);
        else
            sb_printf(&path, "%s/%s", dir, name.data);
        if (name.len && !(strncmp(path.data, dir, dlen) == 0 && path.data[dlen] == '/'))
            sb_printf(&out, "%s\n", path.data);
        sb_free(&path);
        sb_free(&name);
    }
    return sb_take(&out);
}

/* The key of an entry of a source that includes headers: key, then each header of
 * files (one path a line) with its path, contents and size. 0, or -1 when one cannot
 * be read. When since is not NULL, a header modified or changed at or after it (it may
 * not be what the build read) sets *changed. */
static int headers_key(const char *key, const char *files, const struct timespec *since,
                       int *changed, char out[33])
{
    XXH3_state_t *state = XXH3_createState();
    XXH3_128bits_reset(state);
    XXH3_128bits_update(state, key, strlen(key) + 1);
    int rc = 0;
    char path[4200];
    for (const char *p = files; *p && rc == 0;) {
        size_t n = strcspn(p, "\n");
        snprintf(path, sizeof path, "%.*s", (int)n, p);
        p += n + (p[n] == '\n');
        if (!n)
            continue;
        struct stat st;
        if (n >= sizeof path - 1 || stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
            rc = -1;
            break;
        }
        if (since && changed) {
            const struct timespec *m = &st.st_mtim, *ch = &st.st_ctim;
            if (m->tv_sec > since->tv_sec ||
                (m->tv_sec == since->tv_sec && m->tv_nsec >= since->tv_nsec) ||
                ch->tv_sec > since->tv_sec ||
                (ch->tv_sec == since->tv_sec && ch->tv_nsec >= since->tv_nsec))
                *changed = 1;
        }
        XXH3_128bits_update(state, path, n + 1);
        unsigned long long size = (unsigned long long)st.st_size;
        if (hash_file(state, path) != 0)
            rc = -1;
        XXH3_128bits_update(state, &size, sizeof size);
    }
    XXH128_hash_t h = XXH3_128bits_digest(state);
    XXH3_freeState(state);
    snprintf(out, 33, "%016llx%016llx", (unsigned long long)h.high64,
             (unsigned long long)h.low64);
    return rc;
}

/* The entry a source with headers had, found through the list of its key's last build
 * (root/inc-KEY) and the headers' contents now: its key in out, 1; 0 when there is no
 * list or a header of it is gone. */
static int entry_by_headers(const char *root, const char *key, char out[33])
{
    char path[4200];
    snprintf(path, sizeof path, "%s/" INCLUDES_PREFIX "%s", root, key);
    char *files = hls_read_text(path);
    int found = files && *files && headers_key(key, files, NULL, NULL, out) == 0;
    free(files);
    return found;
}

/* Tells the caller (clhls build's progress line) that a step begins. */
static void step_begins(hls_compile *c, const char *step)
{
    if (c->req->progress)
        c->req->progress(c->req->progress_ctx, step);
}

/* The hardware IR after a pass: checked (hls_ir_verify), an invalid one being an
 * internal error. */
static int verify(hls_compile *c, const char *after)
{
    strbuf err = {0};
    int bad = hls_ir_verify(c->program, &err);
    if (bad)
        sb_printf(c->diag.log, "internal error: IR invalid after %s: %s", after, err.data);
    sb_free(&err);
    return bad ? HLS_ERR_INTERNAL : HLS_OK;
}

/* The hardware IR after a pass, on stdout, when --dump-after names it. */
static void dump(hls_compile *c, const char *pass)
{
    if (c->req->dump_after && !strcmp(c->req->dump_after, pass)) {
        printf("; hardware IR after %s\n", pass);
        hls_ir_dump(stdout, c->program);
    }
}

/* Calls no input defines: a link's question only. */
static int check_unresolved(hls_compile *c)
{
    return c->req->inputs ? hls_check_unresolved(c) : HLS_OK;
}

/* One step of the pass list: the pass, and for those of the hardware IR the check
 * after it and the dump --dump-after=NAME asks for (NULL for steps on LLVM IR). */
typedef struct pass {
    const char *name;                              /* as --dump-after names it */
    int (*run)(hls_compile *c);                    /* the pass: HLS_OK or an error */
    int (*verify)(hls_compile *c, const char *after); /* after it, or NULL */
    void (*dump)(hls_compile *c, const char *pass);   /* after it, or NULL */
} pass;

/* The passes from the linked LLVM module to the scheduled hardware IR, in order. */
static const pass passes[] = {
    {"library", hls_link_library, NULL, NULL},        /* OpenCL built-ins (hls/library) */
    {"unresolved", check_unresolved, NULL, NULL},     /* a link: calls no input defines */
    {"inline", hls_inline, NULL, NULL},               /* no calls in hardware: inline all */
    {"recursion", hls_check_recursion, NULL, NULL},   /* ... which recursion defeats */
    {"printf", hls_printf, NULL, NULL},               /* printf: records in a hidden buffer */
    {"simplify", hls_simplify, NULL, NULL},           /* SROA, instcombine, unrolling, ... */
    {"channels", hls_channels, NULL, NULL},           /* channel calls: on channel numbers */
    {"autorun", hls_autorun, NULL, NULL},             /* autorun kernels: an endless loop */
    {"addrspace", hls_generic_pointers, NULL, NULL},  /* generic pointers: to their memory */
    {"simplify-again", hls_simplify_again, NULL, NULL}, /* after a rewrite: SROA, ... */
    {"privarrays", hls_private_arrays, NULL, NULL},   /* arrays indexed at run time: values */
    {"simplify-again", hls_simplify_again, NULL, NULL}, /* ... the new vectors SSA values */
    {"coalesce", hls_coalesce, NULL, NULL},           /* adjacent accesses: one access */
    {"simd", hls_simd, NULL, NULL},                   /* SIMD work-items: a body per lane */
    {"simplify-again", hls_simplify_again, NULL, NULL}, /* ... their common values once */
    {"divide", hls_divisions, NULL, NULL},            /* x % y beside x / y, x / 8: no divider */
    {"check", hls_check, NULL, NULL},                 /* what hardware cannot do: an error */
    {"lower", hls_lower, verify, dump},               /* LLVM IR -> hardware IR */
    {"replicate", hls_replicate, NULL, NULL},         /* kernels' compute units: how many */
    {"cfg", hls_cfg, verify, dump},                   /* dominators and loops */
    {"widen", hls_widen, verify, dump},               /* neighbouring accesses: one */
    {"ifconvert", hls_ifconvert, verify, dump},       /* regions, predicates */
    {"common", hls_common_values, verify, dump},      /* a value computed twice: once */
    {"memorder", hls_memorder, verify, dump},         /* memory order per work-item */
    {"banks", hls_local_banks, verify, dump},         /* local ports: wiring or crossbar */
    {"nodes", hls_memory_nodes, verify, dump},        /* accesses: elastic memory nodes */
    {"pipeline", hls_pipeline, verify, dump},         /* single work-item loops: overlap */
    {"narrow", hls_live_bits, verify, dump},          /* address arithmetic: port bits */
    {"schedule", hls_schedule, verify, dump},         /* stages and credits */
};
#define NPASSES (sizeof passes / sizeof *passes)

/* 1 when --dump-after can name the pass. */
static int known_pass(const char *name)
{
    for (size_t i = 0; i < NPASSES; i++)
        if (passes[i].dump && !strcmp(passes[i].name, name))
            return 1;
    return 0;
}

/* The model: the generated Verilog (files, one path a line) and the templates, built
 * into entry/model.so by the request's model step. */
static int build_model(hls_compile *c, const char *entry, const char *root, strbuf *files)
{
    char **templates = template_files("v");
    if (!templates) {
        sb_printf(c->diag.log, "error: the RTL templates were not found (CLHLS_RTL_DIR)\n");
        return HLS_ERR_TOOL;
    }
    for (char **p = templates; *p; p++)
        sb_printf(files, "%s\n", *p);
    size_t n = 0, lines = 1;
    for (const char *p = files->data; *p; p++)
        lines += *p == '\n';
    const char **list = arena_alloc(&c->arena, sizeof(char *) * lines);
    for (char *line = strtok(files->data, "\n"); line; line = strtok(NULL, "\n"))
        list[n++] = line;
    hls_model_job job = {.verilog = list, .nverilog = n, .top = "clhls_top", .entry = entry,
                         .cache_root = root, .rtl_operators = c->opts.rtl_operators,
                         .progress = c->req->progress, .progress_ctx = c->req->progress_ctx};
    int rc = c->req->model->build(c->req->model_ctx, &job, c->diag.log, c->model_note,
                                  sizeof c->model_note);
    free_list(templates);
    if (rc == HLS_MODEL_OUT_OF_MEMORY) {
        sb_free(files);
        hls_out_of_memory();
    }
    return rc;
}

/* One build in the scratch directory entry: the front end, the pass list, the
 * outputs and the model. */
static int compile(hls_compile *c, const char *entry, const char *root)
{
    int rc;
    if ((rc = hls_parse_options(c)))        /* which options, which OpenCL C */
        return rc;
    if (!c->req->inputs && !c->req->output) /* the headers it reads: in the entry's key */
        ask_for_headers(c);
    step_begins(c, c->req->inputs ? "linking the inputs" : "front end (clang)");
    if (c->req->inputs)                     /* compiled objects and libraries, linked */
        rc = hls_link_inputs(c);
    else                                    /* clang: source -> LLVM IR */
        rc = hls_frontend(c);
    if (rc)
        return rc;
    if (c->req->output)                     /* a compiled object or a library: done */
        return hls_write_bitcode(c, c->req->output);
    step_begins(c, "hardware passes");
    for (const pass *p = passes; p < passes + NPASSES; p++) { /* the pass list */
        if ((rc = p->run(c)) || (p->verify && (rc = p->verify(c, p->name))))
            return rc;
        if (p->dump)
            p->dump(c, p->name);
    }
    if ((rc = hls_emit_report(c, entry)))   /* report.json: for `clhls report` */
        return rc;

    char *rtl = arena_printf(&c->arena, "%s/rtl", entry);
    if (hls_mkdir_p(rtl)) {
        sb_printf(c->diag.log, "error: cannot create %s\n", rtl);
        return HLS_ERR_TOOL;
    }
    strbuf files = {0};
    step_begins(c, "Verilog and metadata");
    rc = hls_emit_verilog(c, rtl, &files);  /* compute units and the top */
    if (!rc)
        rc = hls_emit_metadata(c, arena_printf(&c->arena, "%s/metadata.json", entry));
    if (!rc && !no_model(c->req) && c->program->nkernels)
        rc = build_model(c, entry, root, &files); /* model.so: Verilator */
    sb_free(&files);
    return rc;
}

static void fill_paths(hls_build_result *res, const char *entry, int model)
{
    char buf[4200];
    res->entry_dir = hls_strdup(entry);
    snprintf(buf, sizeof buf, "%s/metadata.json", entry);
    res->metadata_path = hls_strdup(buf);
    snprintf(buf, sizeof buf, "%s/model.so", entry);
    res->model_path = model && access(buf, R_OK) == 0 ? hls_strdup(buf) : NULL;
}

/* The finished build in tmp made the cache entry: the build log and the manifest
 * written (last), then renamed into place; 0, or -1 with the reason in the log. */
static int make_entry(const char *tmp, const char *entry, strbuf *log)
{
    char path[4400], why[600];
    snprintf(path, sizeof path, "%s/build.log", tmp);
    if (hls_write_text(path, log->data, 0) != 0 || hls_manifest_write(tmp) != 0) {
        sb_printf(log, "error: cannot write the cache entry %s: %s\n", tmp, strerror(errno));
        hls_remove_tree(tmp);
        return -1;
    }
    if (hls_entry_publish(tmp, entry, "metadata.json", why, sizeof why) != 0) {
        sb_printf(log, "error: cannot put the cache entry in place: %s\n", why);
        return -1;
    }
    return 0;
}

/* A key no later build computes: an entry whose headers changed while it was built. */
static void unique_key(const char *key, const char *tmp, char out[33])
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    char text[4400];
    int n = snprintf(text, sizeof text, "%s %s %ld %lld %ld", key, tmp, (long)getpid(),
                     (long long)ts.tv_sec, ts.tv_nsec);
    XXH128_hash_t h = XXH3_128bits(text, (size_t)n < sizeof text ? (size_t)n : sizeof text);
    snprintf(out, 33, "%016llx%016llx", (unsigned long long)h.high64,
             (unsigned long long)h.low64);
}

/* After a build of source in tmp: the headers clang listed. With none, the entry
 * stays the key's; else it is named by headers_key (or unique_key when a header
 * changed during the build, or the list is missing), written into entry, and *list
 * gets the headers (one path a line) for root/inc-KEY, or NULL when there is nothing
 * to write there. */
static void entry_for_headers(const char *root, const char *key, const char *tmp,
                              const char *source_name, const struct timespec *began,
                              char *entry, size_t len, char **list)
{
    char path[4400], k2[33];
    snprintf(path, sizeof path, "%s/%s", tmp, deps_name(source_name));
    char *rule = hls_read_text(path);
    unlink(path);
    char *files = rule ? rule_files(rule, tmp) : NULL;
    free(rule);
    *list = NULL;
    if (files && !*files) {
        free(files);
        return;
    }
    int changed = 0;
    if (!files || headers_key(key, files, began, &changed, k2) != 0 || changed) {
        unique_key(key, tmp, k2);
        free(files);
        files = NULL;
    }
    snprintf(entry, len, "%s/%s", root, k2);
    *list = files;
}

static int build(const hls_build_request *req, hls_build_result *res)
{
    double t0 = now_seconds();
    memset(res, 0, sizeof *res);
    strbuf log = {0};
    sb_append(&log, "");
    if (!req || (!req->source && !req->inputs) || !req->board) {
        sb_append(&log, "error: no source or no board\n");
        res->log = sb_take(&log);
        return res->status = HLS_ERR_OPTIONS;
    }
    if (req->dump_after && !known_pass(req->dump_after)) {
        sb_printf(&log, "error: --dump-after=%s: no such pass (passes:", req->dump_after);
        for (size_t i = 0; i < NPASSES; i++)
            if (passes[i].dump)
                sb_printf(&log, " %s", passes[i].name);
        sb_append(&log, ")\n");
        res->log = sb_take(&log);
        return res->status = HLS_ERR_OPTIONS;
    }
    char key[33];
    build_key(req, key);
    char root[3800];
    hls_cache_root(req->cache_dir, root, sizeof root);
    char entry[4096], tmp[4200];
    snprintf(entry, sizeof entry, "%s/%s", root, key);
    if (hls_mkdir_p(root)) {
        sb_printf(&log, "error: cannot create the cache directory %s: %s\n", root,
                  strerror(errno));
        res->log = sb_take(&log);
        return res->status = HLS_ERR_TOOL;
    }
    /* A dump needs the passes to run, so it never takes the cached entry; bitcode
     * output (a compiled object, a library) makes no entry. An entry is used only
     * when its manifest says it is whole; a damaged one is rebuilt. */
    char why[600] = "", why2[600] = "", by_headers[33];
    int cached = req->dump_after || req->output
                     ? 0
                     : hls_entry_usable(entry, "metadata.json", why, sizeof why);
    /* A source with headers: the entry of their contents now, when there is one. */
    if (cached == 0 && !req->dump_after && !req->output && !req->inputs &&
        entry_by_headers(root, key, by_headers)) {
        snprintf(entry, sizeof entry, "%s/%s", root, by_headers);
        cached = hls_entry_usable(entry, "metadata.json", why2, sizeof why2);
        if (*why2)
            snprintf(why, sizeof why, "%s", why2);
        if (cached == 0)
            snprintf(entry, sizeof entry, "%s/%s", root, key);
    }
    if (cached < 0) {
        sb_printf(&log, "error: cannot check the cache entry %s: %s\n", entry, why);
        res->log = sb_take(&log);
        return res->status = HLS_ERR_TOOL;
    }
    if (cached) {
        char *text = hls_read_text(strcat(strcpy(tmp, entry), "/build.log"));
        sb_append(&log, text ? text : "");
        free(text);
        fill_paths(res, entry, !no_model(req));
        res->cache_hit = 1;
        res->log = sb_take(&log);
        res->seconds = now_seconds() - t0;
        return res->status = HLS_OK;
    }

    /* The scratch directory: in the caller's (which it removes whatever happens to
     * this process) or in the cache; on the cache's file system either way, so the
     * finished entry is renamed into place. */
    snprintf(tmp, sizeof tmp, "%s/tmp-%s-XXXXXX",
             req->scratch_dir && *req->scratch_dir ? req->scratch_dir : root, key);
    if (!mkdtemp(tmp)) {
        sb_printf(&log, "error: cannot create a directory in %s: %s\n", root, strerror(errno));
        res->log = sb_take(&log);
        return res->status = HLS_ERR_TOOL;
    }
    hls_set_scratch(tmp);
    hls_compile c = {0};
    c.req = req;
    c.work_dir = tmp;
    c.source_name = req->source_name && *req->source_name ? req->source_name : "program.cl";
    c.diag = (hls_diag){.log = &log, .source = req->source};
    c.llvm = LLVMContextCreate();
    struct timespec began; /* the clock file times come from */
    clock_gettime(CLOCK_REALTIME_COARSE, &began);
    int rc = compile(&c, tmp, root);
    if (c.module)
        LLVMDisposeModule(c.module);
    LLVMContextDispose(c.llvm);
    arena_free(&c.arena);

    char *headers = NULL;
    if (rc == HLS_OK && !req->output && !req->inputs)
        entry_for_headers(root, key, tmp, c.source_name, &began, entry, sizeof entry,
                          &headers);
    if (rc == HLS_OK && !req->output && make_entry(tmp, entry, &log) != 0) {
        rc = HLS_ERR_TOOL;
    } else if (rc == HLS_OK && !req->output) {
        fill_paths(res, entry, !no_model(req));
        /* The list a later build finds the entry by (a failure to write it costs
         * that build a rebuild, nothing else). */
        char list[4200];
        snprintf(list, sizeof list, "%s/" INCLUDES_PREFIX "%s", root, key);
        if (headers)
            hls_replace_text(list, headers);
    } else {
        hls_remove_tree(tmp);
    }
    free(headers);
    hls_set_scratch(NULL);
    /* Damage found is said here, not in the entry's build.log, which every hit repeats. */
    if (*why || *c.model_note) {
        strbuf damaged = {0};
        if (*why)
            sb_printf(&damaged, "clhls: cache entry %s is damaged (%s); %s\n", key, why,
                      rc == HLS_OK ? "rebuilt" : "rebuilding it failed");
        sb_append(&damaged, c.model_note);
        sb_append(&damaged, log.data);
        sb_free(&log);
        log = damaged;
    }
    res->log = sb_take(&log);
    res->seconds = now_seconds() - t0;
    return res->status = rc;
}

int hls_build(const hls_build_request *req, hls_build_result *res)
{
    if (!req)
        return build(req, res);
    hls_build_request r = *req;
    char *options = absolute_includes(req->options);
    r.options = options;
    int rc = build(&r, res);
    free(options);
    return rc;
}

void hls_build_result_free(hls_build_result *res)
{
    if (!res)
        return;
    free(res->log);
    free(res->entry_dir);
    free(res->metadata_path);
    free(res->model_path);
    memset(res, 0, sizeof *res);
}
