/* Channels (Intel's cl_intel_channels, and cl_altera_channels): FIFOs that join the
 * kernels of a program. The front end declares a channel as an external __constant
 * variable (`channel int c __attribute__((depth(8)))` becomes `extern __constant int
 * c __attribute__((section("clhls.channel.depth=8")))`, frontend.c) and the channel
 * functions as macros around calls that take the channel's address and a private
 * variable holding the element: __clhls_channel_read(&c, &v), _read_nb(&c, &v,
 * valid), _write(&c, &v), _write_nb(&c, &v). After unrolling (an array of channels
 * indexed by an unrolled loop's counter has a constant index by then), this pass
 * gives each channel element used a number in the program's channel table and turns
 * each call into a call the lowering knows, on the element's bits as an integer (above
 * 64 bits, a vector of 32 or 8-bit lanes):
 *   %v = clhls.channel.read(i32 channel)          -> iN, stored to the variable
 *   %v = clhls.channel.read_nb(i32 channel)       -> iN, and right after it
 *   %f = clhls.channel.read_valid(i32 channel)    -> i8, stored to *valid
 *   clhls.channel.write(i32 channel, iN value)    (the variable, loaded)
 *   %ok = clhls.channel.write_nb(i32 channel, iN value) -> i1
 * so that SROA (the next simplify step) keeps the variables in registers. A channel
 * joins one writing kernel to one reading kernel, each accessing it at one place;
 * anything else is a build error at the call.
 *
 * OpenCL 2.0 pipes are channels too. As in Intel's SDK, the pipe arguments of the same
 * name in the writing and the reading kernel are one FIFO, fixed when the program is
 * built (clCreatePipe's object only stands for it on the host). clang calls
 * __read_pipe_2(p, &v, size, align) and __write_pipe_2, which answer 0 or, when the
 * pipe is empty or full, -1 (an argument with Intel's __attribute__((blocking)) waits
 * instead: hls_vendor_attribute); __get_pipe_num_packets_{ro,wo}(p, size, align) becomes
 *   %n = clhls.channel.count(i32 channel)         -> i32, the entries now
 * and __get_pipe_max_packets_{ro,wo} clhls.channel.depth(i32 channel), the FIFO's
 * entries. The FIFO holds the argument's depth(N) packets, or PIPE_DEFAULT_DEPTH.
 * Reservations (reserve_read_pipe, the 4-argument read_pipe, ...) are build errors. */
#include <stdlib.h>
#include <string.h>

#include "passes.h"

/* The channel functions of the front end's header, and what each becomes. */
typedef enum { CH_READ, CH_READ_NB, CH_WRITE, CH_WRITE_NB } call_kind;

static const struct {
    const char *from;  /* the header's function */
    const char *to;    /* the call the lowering knows */
} calls[] = {
    [CH_READ] = {"__clhls_channel_read", "clhls.channel.read"},
    [CH_READ_NB] = {"__clhls_channel_read_nb", "clhls.channel.read_nb"},
    [CH_WRITE] = {"__clhls_channel_write", "clhls.channel.write"},
    [CH_WRITE_NB] = {"__clhls_channel_write_nb", "clhls.channel.write_nb"},
};

#define NCALLS (int)(sizeof calls / sizeof *calls)

/* The fewest entries of a channel's FIFO: its room is a register, so one entry would
 * take an element every other cycle. */
#define MIN_CHANNEL_DEPTH 2

/* The packets a pipe holds when no depth attribute says. */
#define PIPE_DEFAULT_DEPTH 16

/* The largest element a channel carries, in bits: what the hardware IR moves as one
 * value. */
#define MAX_CHANNEL_BITS HLS_MAX_WIDE_BITS

static int call_kind_of(LLVMValueRef inst)
{
    const char *name = hls_llvm_callee_name(inst);
    for (int i = 0; i < NCALLS; i++)
        if (!strcmp(name, calls[i].from))
            return i;
    return -1;
}

hls_channel_fn hls_find_channel_fn(const char *name)
{
    if (!strcmp(name, "clhls.channel.read_valid"))
        return HLS_CHANNEL_READ_VALID;
    if (!strcmp(name, "clhls.channel.count"))
        return HLS_CHANNEL_COUNT;
    if (!strcmp(name, "clhls.channel.depth"))
        return HLS_CHANNEL_DEPTH;
    for (int i = 0; i < NCALLS; i++) {
        size_t n = strlen(calls[i].to);
        if (!strncmp(name, calls[i].to, n) && !strncmp(name + n, ".i", 2))
            return (hls_channel_fn)(HLS_CHANNEL_READ + i);
    }
    return HLS_CHANNEL_NONE;
}

/* The element type of a channel variable (of an array of channels, its innermost
 * element) and the number of elements. */
static LLVMTypeRef element_type(LLVMTypeRef t, unsigned *count)
{
    *count = 1;
    while (LLVMGetTypeKind(t) == LLVMArrayTypeKind) {
        *count *= LLVMGetArrayLength(t);
        t = LLVMGetElementType(t);
    }
    return t;
}

/* The declared depth: the number in the section "clhls.channel.depth=N" the depth
 * attribute gives, 0 without one (Intel's default: "as the compiler likes"); -1 when
 * the attribute's argument is not a number. */
static int declared_depth(LLVMValueRef gv)
{
    static const char prefix[] = "clhls.channel.depth=";
    const char *section = LLVMGetSection(gv);
    if (!section || strncmp(section, prefix, sizeof prefix - 1))
        return 0;
    const char *digits = section + sizeof prefix - 1;
    char *end;
    long n = strtol(digits, &end, 0);
    if (end == digits || *end || n < 0 || n > (1 << 20))
        return -1;
    return (int)n;
}

/* The name of element `index` of channel variable gv ("c", or "c[2]" in an array of
 * count). */
static const char *element_name(hls_compile *c, LLVMValueRef gv, unsigned index,
                                unsigned count)
{
    size_t len;
    const char *name = LLVMGetValueName2(gv, &len);
    return count > 1 ? arena_printf(&c->arena, "%s[%u]", name, index)
                     : arena_strdup(&c->arena, name);
}

/* The channel table's entry `name` (a pipe's when pipe), added when new with these
 * bits and declared depth. */
static int table_entry(hls_compile *c, const char *name, int pipe, unsigned bits, int declared)
{
    for (int i = 0; i < c->nchannels; i++)
        if (c->channels[i].pipe == pipe && !strcmp(c->channels[i].name, name))
            return i;
    hls_channel *table = arena_alloc(&c->arena, (size_t)(c->nchannels + 1) * sizeof *table);
    if (c->nchannels)
        memcpy(table, c->channels, (size_t)c->nchannels * sizeof *table);
    c->channels = table;
    int depth = declared > MIN_CHANNEL_DEPTH ? declared : MIN_CHANNEL_DEPTH;
    c->channels[c->nchannels] = (hls_channel){.name = name, .pipe = pipe, .bits = bits,
                                              .declared_depth = declared, .depth = depth,
                                              .writer = -1, .reader = -1};
    return c->nchannels++;
}

/* The channel table's entry for the channel a call's first operand points to, added
 * when new; -1 after an error. */
static int channel_of(hls_compile *c, LLVMValueRef call, hls_loc loc)
{
    LLVMTargetDataRef td = LLVMGetModuleDataLayout(c->module);
    uint64_t offset;
    LLVMValueRef gv = hls_llvm_constant_offset(td, LLVMGetOperand(call, 0), &offset);
    if (!gv || !LLVMIsAGlobalVariable(gv)) {
        hls_error(&c->diag, loc, "the channel must be known when the kernel is built: an "
                  "array of channels takes indices that are constants once loops are unrolled "
                  "(a loop over channels needs '#pragma unroll')");
        return -1;
    }
    unsigned count;
    LLVMTypeRef t = element_type(LLVMGlobalGetValueType(gv), &count);
    unsigned long long bytes = LLVMABISizeOfType(td, t);
    unsigned index = (unsigned)(offset / bytes);
    if (offset % bytes || index >= count) {
        hls_error(&c->diag, loc, "this is not one of the channels of '%s'",
                  LLVMGetValueName2(gv, &(size_t){0}));
        return -1;
    }
    const char *name = element_name(c, gv, index, count);
    for (int i = 0; i < c->nchannels; i++)
        if (!c->channels[i].pipe && !strcmp(c->channels[i].name, name))
            return i;
    if (bytes * 8 > MAX_CHANNEL_BITS) {
        hls_error(&c->diag, loc, "channel '%s' carries %llu bytes; channels of more than %d "
                  "bytes are not supported yet", name, bytes, MAX_CHANNEL_BITS / 8);
        return -1;
    }
    int declared = declared_depth(gv);
    if (declared < 0) {
        hls_error(&c->diag, loc, "the depth of channel '%s' must be a number (%s)", name,
                  LLVMGetSection(gv));
        return -1;
    }
    int ch = table_entry(c, name, 0, (unsigned)bytes * 8, declared);
    if (declared && declared < c->channels[ch].depth)
        hls_note(&c->diag, loc, "channel '%s' holds %d elements, more than its depth(%d), so "
                 "that it can take an element every cycle", name, c->channels[ch].depth,
                 declared);
    return ch;
}

/* Records kernel `kernel` as the channel's writer or reader at loc: one kernel, one
 * place each (0), or a build error (1). */
static int claim(hls_compile *c, hls_channel *ch, int write, int kernel, const char *kname,
                 hls_loc loc)
{
    int *who = write ? &ch->writer : &ch->reader;
    hls_loc *at = write ? &ch->write_at : &ch->read_at;
    const char *verb = write ? "written" : "read", *what = ch->pipe ? "pipe" : "channel";
    if (*who >= 0) {
        hls_error(&c->diag, loc, "%s '%s' is already %s at %s:%u:%u: clhls joins one "
                  "place that writes a %s to one place that reads it (compute the value "
                  "first, then access the %s once)", what, ch->name, verb, at->file, at->line,
                  at->col, what, what);
        return 1;
    }
    if ((write ? ch->reader : ch->writer) == kernel) {
        hls_error(&c->diag, loc, "kernel '%s' both reads and writes %s '%s': a %s "
                  "joins two kernels", kname, what, ch->name, what);
        return 1;
    }
    *who = kernel;
    *at = loc;
    return 0;
}

/* The lowering's function `name` of the given type, declared once. */
static LLVMValueRef declare(hls_compile *c, const char *name, LLVMTypeRef fn_type)
{
    LLVMValueRef fn = LLVMGetNamedFunction(c->module, name);
    return fn ? fn : LLVMAddFunction(c->module, name, fn_type);
}

/* Lanes of an element of `bits`: the whole element up to 64 bits, else 32 or 8-bit
 * pieces (a vector of them is what the operations that only move bits take). */
static LLVMTypeRef lane_type(LLVMContextRef ctx, unsigned bits, unsigned *lanes)
{
    unsigned w = bits <= 64 ? bits : bits % 32 == 0 ? 32 : 8;
    *lanes = bits / w;
    return LLVMIntTypeInContext(ctx, w);
}

/* The element's bits in the variable at var: one load per lane (each lane at its
 * byte offset, so that SROA splits the variable into its fields), put together. */
static LLVMValueRef load_element(hls_compile *c, LLVMBuilderRef b, LLVMValueRef var,
                                 unsigned bits)
{
    unsigned lanes;
    LLVMTypeRef lane = lane_type(c->llvm, bits, &lanes), i8 = LLVMInt8TypeInContext(c->llvm);
    if (lanes == 1)
        return LLVMBuildLoad2(b, lane, var, "");
    LLVMValueRef v = LLVMGetUndef(LLVMVectorType(lane, lanes));
    for (unsigned i = 0; i < lanes; i++) {
        LLVMValueRef at = LLVMConstInt(LLVMInt64TypeInContext(c->llvm), i * (bits / lanes / 8), 0);
        LLVMValueRef p = LLVMBuildGEP2(b, i8, var, &at, 1, "");
        v = LLVMBuildInsertElement(b, v, LLVMBuildLoad2(b, lane, p, ""),
                                   LLVMConstInt(LLVMInt32TypeInContext(c->llvm), i, 0), "");
    }
    return v;
}

/* Stores the element's bits v (as load_element gives them) into the variable at var. */
static void store_element(hls_compile *c, LLVMBuilderRef b, LLVMValueRef v, LLVMValueRef var,
                          unsigned bits)
{
    unsigned lanes;
    LLVMTypeRef i8 = LLVMInt8TypeInContext(c->llvm);
    lane_type(c->llvm, bits, &lanes);
    if (lanes == 1) {
        LLVMBuildStore(b, v, var);
        return;
    }
    for (unsigned i = 0; i < lanes; i++) {
        LLVMValueRef at = LLVMConstInt(LLVMInt64TypeInContext(c->llvm), i * (bits / lanes / 8), 0);
        LLVMValueRef x = LLVMBuildExtractElement(
            b, v, LLVMConstInt(LLVMInt32TypeInContext(c->llvm), i, 0), "");
        LLVMBuildStore(b, x, LLVMBuildGEP2(b, i8, var, &at, 1, ""));
    }
}

/* The lowering's calls for an access of channel `ch` of the given kind, placed before
 * call, whose second operand is the address of the element's variable: for a
 * non-blocking one, whether it read or wrote an element (i1); NULL otherwise. */
static LLVMValueRef rewrite_access(hls_compile *c, LLVMBuilderRef b, LLVMValueRef call,
                                   call_kind kind, int ch)
{
    LLVMContextRef ctx = c->llvm;
    unsigned bits = c->channels[ch].bits, lanes;
    LLVMTypeRef lane = lane_type(ctx, bits, &lanes);
    LLVMTypeRef elem = lanes == 1 ? lane : LLVMVectorType(lane, lanes);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx), i1 = LLVMInt1TypeInContext(ctx);
    LLVMValueRef id = LLVMConstInt(i32, (unsigned long long)ch, 0);
    LLVMValueRef var = LLVMGetOperand(call, 1); /* the private variable of the element */
    char name[64];
    snprintf(name, sizeof name, "%s.i%u", calls[kind].to, bits); /* one per element size */
    LLVMPositionBuilderBefore(b, call);
    if (kind == CH_READ || kind == CH_READ_NB) {
        LLVMTypeRef ft = LLVMFunctionType(elem, &i32, 1, 0);
        store_element(c, b, LLVMBuildCall2(b, ft, declare(c, name, ft), &id, 1, ""), var, bits);
        if (kind == CH_READ)
            return NULL;
        LLVMTypeRef i8 = LLVMInt8TypeInContext(ctx), vt = LLVMFunctionType(i8, &i32, 1, 0);
        LLVMValueRef valid =
            LLVMBuildCall2(b, vt, declare(c, "clhls.channel.read_valid", vt), &id, 1, "");
        return LLVMBuildICmp(b, LLVMIntNE, valid, LLVMConstInt(i8, 0, 0), "");
    }
    int nb = kind == CH_WRITE_NB;
    LLVMTypeRef params[2] = {i32, elem};
    LLVMTypeRef ft = LLVMFunctionType(nb ? i1 : LLVMVoidTypeInContext(ctx), params, 2, 0);
    LLVMValueRef args[2] = {id, load_element(c, b, var, bits)};
    LLVMValueRef done = LLVMBuildCall2(b, ft, declare(c, name, ft), args, 2, "");
    return nb ? done : NULL;
}

/* Turns one call of the header into the lowering's calls on channel `ch`. */
static void rewrite(hls_compile *c, LLVMBuilderRef b, LLVMValueRef call, call_kind kind, int ch)
{
    LLVMValueRef done = rewrite_access(c, b, call, kind, ch);
    if (kind == CH_READ_NB) /* the valid flag: a bool in memory is a byte */
        LLVMBuildStore(b, LLVMBuildZExt(b, done, LLVMInt8TypeInContext(c->llvm), ""),
                       LLVMGetOperand(call, 2));
    else if (kind == CH_WRITE_NB) /* the header's function returns bool: i1 */
        LLVMReplaceAllUsesWith(call, done);
    LLVMInstructionEraseFromParent(call);
}

/* The pipe functions clang calls, and what each becomes. */
typedef enum { PIPE_READ, PIPE_WRITE, PIPE_NUM_PACKETS, PIPE_MAX_PACKETS } pipe_call;

static const struct {
    const char *name;  /* clang's function */
    pipe_call kind;
} pipe_calls[] = {
    {"__read_pipe_2", PIPE_READ},
    {"__write_pipe_2", PIPE_WRITE},
    {"__get_pipe_num_packets_ro", PIPE_NUM_PACKETS},
    {"__get_pipe_num_packets_wo", PIPE_NUM_PACKETS},
    {"__get_pipe_max_packets_ro", PIPE_MAX_PACKETS},
    {"__get_pipe_max_packets_wo", PIPE_MAX_PACKETS},
};

/* 1 for the name of one of clang's pipe functions (__read_pipe_2, __reserve_read_pipe,
 * __work_group_commit_write_pipe, ...). */
static int is_pipe_function(const char *name)
{
    return !strncmp(name, "__", 2) && strstr(name, "_pipe") && strncmp(name, "__clhls", 7);
}

int hls_is_channel_call(const char *name)
{
    return !strncmp(name, "__clhls_channel_", 16) || is_pipe_function(name);
}

/* A call of one of clang's pipe functions: its kind in pipe_calls, -2 for the others
 * (reservations), -1 when the call is not on a pipe. */
static int pipe_call_of(LLVMValueRef inst)
{
    const char *name = hls_llvm_callee_name(inst);
    for (size_t i = 0; i < sizeof pipe_calls / sizeof *pipe_calls; i++)
        if (!strcmp(name, pipe_calls[i].name))
            return (int)pipe_calls[i].kind;
    return is_pipe_function(name) ? -2 : -1;
}

/* The channel table's entry of the pipe argument a pipe call names in kernel fn, added
 * when new; -1 after an error. */
static int pipe_of(hls_compile *c, LLVMValueRef fn, LLVMValueRef call, pipe_call kind,
                   hls_loc loc)
{
    LLVMValueRef p = LLVMGetOperand(call, 0);
    if (!LLVMIsAArgument(p) || LLVMGetParamParent(p) != fn) {
        hls_error(&c->diag, loc, "the pipe must be known when the kernel is built: use one "
                  "of the kernel's pipe arguments directly");
        return -1;
    }
    size_t len;
    const char *kname = LLVMGetValueName2(fn, &len);
    const char *name = arena_strdup(&c->arena, LLVMGetValueName2(p, &len));
    /* the packet's size: the operand after the packet's address, or after the pipe */
    unsigned size_at = kind == PIPE_READ || kind == PIPE_WRITE ? 2 : 1;
    unsigned long long bytes = LLVMConstIntGetZExtValue(LLVMGetOperand(call, size_at));
    if (bytes * 8 > MAX_CHANNEL_BITS) {
        hls_error(&c->diag, loc, "pipe '%s' carries %llu bytes; pipes of more than %d bytes "
                  "are not supported yet", name, bytes, MAX_CHANNEL_BITS / 8);
        return -1;
    }
    const hls_vendor_attr *attr = hls_vendor_attribute(c, HLS_ATTR_DEPTH, kname, name);
    int declared = attr ? attr->value : 0;
    if (attr && declared < 1) {
        hls_error(&c->diag, attr->loc, "the depth of pipe '%s' must be a positive number", name);
        return -1;
    }
    int ch = table_entry(c, name, 1, (unsigned)bytes * 8, declared);
    hls_channel *e = &c->channels[ch];
    if (e->bits != bytes * 8) {
        const hls_loc *at = e->writer >= 0 ? &e->write_at : &e->read_at;
        hls_error(&c->diag, loc, "pipe '%s' carries %llu bytes here but %u bytes at %s:%u:%u: "
                  "the pipe arguments of one name must have one packet type", name, bytes,
                  e->bits / 8, at->file, at->line, at->col);
        return -1;
    }
    if (declared > e->declared_depth)
        e->declared_depth = declared;
    return ch;
}

/* Turns a call of clang's pipe functions into the lowering's calls on channel `ch`:
 * read_pipe and write_pipe answer 0, or -1 when a non-blocking one found the pipe
 * empty or full. */
static void rewrite_pipe(hls_compile *c, LLVMBuilderRef b, LLVMValueRef call, pipe_call kind,
                         int ch, int blocking)
{
    LLVMContextRef ctx = c->llvm;
    LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx);
    LLVMValueRef id = LLVMConstInt(i32, (unsigned long long)ch, 0), result;
    LLVMPositionBuilderBefore(b, call);
    if (kind == PIPE_NUM_PACKETS || kind == PIPE_MAX_PACKETS) {
        LLVMTypeRef ft = LLVMFunctionType(i32, &i32, 1, 0);
        const char *fn = kind == PIPE_NUM_PACKETS ? "clhls.channel.count"
                                                  : "clhls.channel.depth";
        result = LLVMBuildCall2(b, ft, declare(c, fn, ft), &id, 1, "");
    } else {
        call_kind k = kind == PIPE_READ ? (blocking ? CH_READ : CH_READ_NB)
                                        : (blocking ? CH_WRITE : CH_WRITE_NB);
        LLVMValueRef done = rewrite_access(c, b, call, k, ch);
        result = blocking ? LLVMConstInt(i32, 0, 0)
                          : LLVMBuildSelect(b, done, LLVMConstInt(i32, 0, 0),
                                            LLVMConstInt(i32, (unsigned long long)-1, 1), "");
    }
    LLVMReplaceAllUsesWith(call, result);
    LLVMInstructionEraseFromParent(call);
}

/* One pipe call of kernel fn (number `kernel`), rewritten; 1 after an error. */
static int kernel_pipe_call(hls_compile *c, LLVMBuilderRef b, LLVMValueRef fn, int kernel,
                            LLVMValueRef call, int kind)
{
    size_t len;
    const char *kname = LLVMGetValueName2(fn, &len);
    hls_loc loc = hls_llvm_diag_loc(c, call);
    if (kind == -2) {
        hls_error(&c->diag, loc, "pipe reservations (reserve_read_pipe, reserve_write_pipe, "
                  "their work-group and sub-group forms, read_pipe and write_pipe with a "
                  "reservation) are not supported: read or write one packet at a time, "
                  "read_pipe(p, &v) and write_pipe(p, &v)");
        return 1;
    }
    int ch = pipe_of(c, fn, call, (pipe_call)kind, loc);
    if (ch < 0)
        return 1;
    if ((kind == PIPE_READ || kind == PIPE_WRITE) &&
        claim(c, &c->channels[ch], kind == PIPE_WRITE, kernel, kname, loc))
        return 1;
    rewrite_pipe(c, b, call, (pipe_call)kind, ch,
                 hls_vendor_attribute(c, HLS_ATTR_BLOCKING, kname, c->channels[ch].name) != NULL);
    return 0;
}

/* The kernel function's channel calls, rewritten; the number of errors. */
static int kernel_channels(hls_compile *c, LLVMBuilderRef b, LLVMValueRef fn, int kernel)
{
    size_t len;
    const char *kname = LLVMGetValueName2(fn, &len);
    int errors = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
        LLVMValueRef next;
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = next) {
            next = LLVMGetNextInstruction(i);
            int pipe_kind = pipe_call_of(i);
            if (pipe_kind != -1) {
                errors += kernel_pipe_call(c, b, fn, kernel, i, pipe_kind);
                continue;
            }
            int kind = call_kind_of(i);
            if (kind < 0)
                continue;
            hls_loc loc = hls_llvm_diag_loc(c, i);
            int ch = channel_of(c, i, loc);
            if (ch < 0 || claim(c, &c->channels[ch], kind == CH_WRITE || kind == CH_WRITE_NB,
                                kernel, kname, loc)) {
                errors++;
                continue;
            }
            rewrite(c, b, i, (call_kind)kind, ch);
        }
    }
    return errors;
}

int hls_channels(hls_compile *c)
{
    /* (the calls may come from objects compiled apart and linked: look for them in
     * every program) */
    LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llvm);
    int errors = 0, kernel = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(c->module); fn; fn = LLVMGetNextFunction(fn)) {
        if (LLVMIsDeclaration(fn) || LLVMGetFunctionCallConv(fn) != LLVMSPIRKERNELCallConv)
            continue;
        errors += kernel_channels(c, b, fn, kernel++);
    }
    LLVMDisposeBuilder(b);
    for (int i = 0; !errors && i < c->nchannels; i++) {
        hls_channel *ch = &c->channels[i];
        if (ch->writer < 0 && ch->reader < 0) /* a pipe whose packets are only counted */
            continue;
        if (ch->writer < 0 || ch->reader < 0) {
            hls_error(&c->diag, ch->writer < 0 ? ch->read_at : ch->write_at,
                      "%s '%s' is %s here but no kernel of the program %s it, so it "
                      "would wait forever%s", ch->pipe ? "pipe" : "channel", ch->name,
                      ch->writer < 0 ? "read" : "written", ch->writer < 0 ? "writes" : "reads",
                      ch->pipe ? " (clhls joins the pipe arguments of the same name in the "
                                 "kernel that writes and the kernel that reads)" : "");
            errors++;
        }
        if (ch->pipe) {
            int declared = ch->declared_depth;
            ch->depth = !declared ? PIPE_DEFAULT_DEPTH
                        : declared > MIN_CHANNEL_DEPTH ? declared : MIN_CHANNEL_DEPTH;
        }
    }
    c->simplify_pending |= c->nchannels > 0; /* SROA: the element variables into registers */
    return errors ? HLS_ERR_COMPILE : HLS_OK;
}
