/* printf in kernels (OpenCL C 1.2 section 6.12.13). Runs on the LLVM module after
 * inlining, so every printf a kernel makes is a call in the kernel itself. A kernel
 * that calls printf gets one more parameter, a __global pointer to the printf buffer
 * (HLS_PRINTF_BUFFER_ARG, last; the runtime allocates and fills it in, users never see
 * it). Each call site gets a format id and becomes: the record's values packed into
 * 64-bit words, a global atomic_add on the buffer's first word that claims the
 * record's bytes, and, when the record fits, a store of each word; printf returns 0,
 * or -1 when the record did not fit. A record is the format id and the work-item's
 * global ids (32 bits each), then the values: integers, floats (a float promoted to
 * double is recorded as the float), pointers, vectors lane by lane, and for %s the
 * id of the constant string. The formats, record layouts and strings go into the
 * metadata; the runtime formats the records on the host. The format must be a string
 * literal and %s takes string literals only: anything else is a build error. A
 * kernel without printf is left alone. */
#include <llvm-c/DebugInfo.h>
#include <stdlib.h>
#include <string.h>

#include "passes.h"

/* The text of a constant C string a pointer points to (a global constant, maybe at a
 * constant offset), or NULL. */
static const char *constant_string(LLVMValueRef v, size_t *len)
{
    unsigned long long offset = 0;
    for (;;) {
        if (LLVMIsAConstantExpr(v) && (LLVMGetConstOpcode(v) == LLVMAddrSpaceCast ||
                                       LLVMGetConstOpcode(v) == LLVMBitCast)) {
            v = LLVMGetOperand(v, 0);
        } else if (LLVMIsAConstantExpr(v) && LLVMGetConstOpcode(v) == LLVMGetElementPtr) {
            /* getelementptr [N x i8], @s, 0, k  or  getelementptr i8, @s, k */
            int n = LLVMGetNumOperands(v);
            LLVMValueRef last = LLVMGetOperand(v, (unsigned)n - 1);
            if (n < 2 || n > 3 || !LLVMIsAConstantInt(last))
                return NULL;
            if (n == 3 && (!LLVMIsAConstantInt(LLVMGetOperand(v, 1)) ||
                           LLVMConstIntGetZExtValue(LLVMGetOperand(v, 1))))
                return NULL;
            offset += LLVMConstIntGetZExtValue(last);
            v = LLVMGetOperand(v, 0);
        } else {
            break;
        }
    }
    if (!LLVMIsAGlobalVariable(v) || !LLVMIsGlobalConstant(v) || !LLVMGetInitializer(v))
        return NULL;
    LLVMValueRef init = LLVMGetInitializer(v);
    if (!LLVMIsAConstantDataSequential(init) || !LLVMIsConstantString(init))
        return NULL;
    size_t n;
    const char *s = LLVMGetAsString(init, &n);
    if (offset > n)
        return NULL;
    *len = strnlen(s + offset, n - offset);
    return s + offset;
}

/* One value to store: an integer of 8, 16, 32 or 64 bits at a byte offset. */
typedef struct field {
    LLVMValueRef v;           /* the value, as an integer */
    unsigned offset;          /* byte offset in the record */
} field;

/* One call site being rewritten. */
typedef struct site {
    hls_compile *c;           /* the compilation */
    hls_printf_kernel *pk;    /* the kernel's printf description */
    LLVMBuilderRef b;         /* positioned before the call */
    hls_printf_arg args[256]; /* the record's layout */
    int nargs;                /* entries of args */
    field fields[1024];       /* the values */
    int nfields;              /* entries of fields */
    unsigned bytes;           /* record bytes so far */
} site;

static unsigned align_to(unsigned x, unsigned a)
{
    return (x + a - 1) / a * a;
}

/* The integer type of a scalar's bits: bytes (1, 2, 4, 8), or 0 when the hardware's
 * printf cannot record the type. */
static unsigned scalar_bytes(LLVMTypeRef t, char *kind)
{
    switch (LLVMGetTypeKind(t)) {
    case LLVMIntegerTypeKind: {
        unsigned w = LLVMGetIntTypeWidth(t);
        *kind = 'i';
        return w <= 8 ? 1 : w <= 16 ? 2 : w <= 32 ? 4 : w <= 64 ? 8 : 0;
    }
    case LLVMHalfTypeKind: *kind = 'f'; return 2;
    case LLVMFloatTypeKind: *kind = 'f'; return 4;
    case LLVMDoubleTypeKind: *kind = 'f'; return 8;
    case LLVMPointerTypeKind: *kind = 'p'; return 8;
    default: return 0;
    }
}

/* Adds a scalar value (as its bits) to the record at the next offset aligned to its
 * size. Returns 0, or -1 when the record is full. */
static int add_scalar(site *s, LLVMValueRef v, unsigned bytes, unsigned *offset)
{
    if (s->nfields == (int)(sizeof s->fields / sizeof *s->fields))
        return -1;
    LLVMContextRef ctx = s->c->llvm;
    LLVMTypeRef it = LLVMIntTypeInContext(ctx, bytes * 8);
    LLVMTypeRef t = LLVMTypeOf(v);
    if (LLVMGetTypeKind(t) == LLVMPointerTypeKind)
        v = LLVMBuildPtrToInt(s->b, v, it, "");
    else if (LLVMGetTypeKind(t) != LLVMIntegerTypeKind)
        v = LLVMBuildBitCast(s->b, v, it, "");
    else if (LLVMGetIntTypeWidth(t) < bytes * 8)
        v = LLVMBuildZExt(s->b, v, it, "");
    s->bytes = align_to(s->bytes, bytes);
    *offset = s->bytes;
    s->fields[s->nfields++] = (field){v, s->bytes};
    s->bytes += bytes;
    return 0;
}

/* Records one argument: kind and lanes say what the conversion expects. */
static int add_value(site *s, LLVMValueRef v, unsigned lanes, hls_loc loc)
{
    if (s->nargs == (int)(sizeof s->args / sizeof *s->args)) {
        hls_error(&s->c->diag, loc, "printf: too many arguments");
        return -1;
    }
    LLVMTypeRef t = LLVMTypeOf(v);
    int vector = LLVMGetTypeKind(t) == LLVMVectorTypeKind;
    unsigned n = vector ? LLVMGetVectorSize(t) : 1;
    if (lanes && (!vector || n != lanes)) {
        hls_error(&s->c->diag, loc, "printf: the vector conversion %%v%u needs a vector of %u "
                  "elements", lanes, lanes);
        return -1;
    }
    if (!lanes && vector) {
        hls_error(&s->c->diag, loc, "printf: a vector argument needs a vector conversion "
                  "(%%v%u...)", n);
        return -1;
    }
    /* a float passed to the variadic printf arrives promoted to double */
    if (!vector && LLVMIsAFPExtInst(v) &&
        LLVMGetTypeKind(LLVMTypeOf(LLVMGetOperand(v, 0))) == LLVMFloatTypeKind)
        v = LLVMGetOperand(v, 0);
    else if (!vector && LLVMIsAConstantFP(v) &&
             LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMDoubleTypeKind) {
        LLVMBool lost;
        double d = LLVMConstRealGetDouble(v, &lost);
        if ((double)(float)d == d)
            v = LLVMConstReal(LLVMFloatTypeInContext(s->c->llvm), d);
    }
    LLVMTypeRef et = vector ? LLVMGetElementType(LLVMTypeOf(v)) : LLVMTypeOf(v);
    hls_printf_arg *a = &s->args[s->nargs];
    a->bytes = scalar_bytes(et, &a->kind);
    a->lanes = n;
    if (!a->bytes) {
        hls_error(&s->c->diag, loc, "printf: an argument of this type cannot be printed");
        return -1;
    }
    for (unsigned i = 0; i < n; i++) {
        LLVMValueRef lane = vector ? LLVMBuildExtractElement(
                                         s->b, v, LLVMConstInt(LLVMInt32TypeInContext(s->c->llvm),
                                                               i, 0), "")
                                   : v;
        unsigned off;
        if (add_scalar(s, lane, a->bytes, &off)) {
            hls_error(&s->c->diag, loc, "printf: too many arguments");
            return -1;
        }
        if (i == 0)
            a->offset = off;
    }
    s->nargs++;
    return 0;
}

/* The id of a constant string in the kernel's table (added when new). */
static unsigned string_id(site *s, const char *text, size_t len)
{
    hls_printf_kernel *pk = s->pk;
    for (int i = 0; i < pk->nstrings; i++)
        if (strlen(pk->strings[i]) == len && !memcmp(pk->strings[i], text, len))
            return (unsigned)i;
    const char **grown = arena_alloc(&s->c->arena, (size_t)(pk->nstrings + 1) * sizeof *grown);
    if (pk->nstrings)
        memcpy(grown, pk->strings, (size_t)pk->nstrings * sizeof *grown);
    grown[pk->nstrings] = arena_printf(&s->c->arena, "%.*s", (int)len, text);
    pk->strings = grown;
    return (unsigned)pk->nstrings++;
}

static LLVMValueRef declare(hls_compile *c, const char *name, LLVMTypeRef ret,
                            LLVMTypeRef *params, unsigned n)
{
    LLVMValueRef fn = LLVMGetNamedFunction(c->module, name);
    if (!fn) {
        fn = LLVMAddFunction(c->module, name, LLVMFunctionType(ret, params, n, 0));
        LLVMSetFunctionCallConv(fn, LLVMSPIRFUNCCallConv);
    }
    return fn;
}

static LLVMValueRef call(hls_compile *c, LLVMBuilderRef b, LLVMValueRef fn,
                         LLVMValueRef *args, unsigned n)
{
    LLVMValueRef r = LLVMBuildCall2(b, LLVMGlobalGetValueType(fn), fn, args, n, "");
    LLVMSetInstructionCallConv(r, LLVMGetFunctionCallConv(fn));
    (void)c;
    return r;
}

/* The function that writes one record: claims its bytes with an atomic add on the
 * buffer's first word and stores its words when it fits; returns 0 or -1. Inlined
 * into the kernel afterwards. */
static LLVMValueRef record_writer(hls_compile *c, unsigned bytes)
{
    LLVMContextRef ctx = c->llvm;
    LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx), i64 = LLVMInt64TypeInContext(ctx);
    LLVMTypeRef i8 = LLVMInt8TypeInContext(ctx);
    LLVMTypeRef gptr = LLVMPointerTypeInContext(ctx, 1);
    unsigned nwords = bytes / 8;
    LLVMTypeRef params[1 + nwords];
    params[0] = gptr;
    for (unsigned i = 0; i < nwords; i++)
        params[1 + i] = i64;
    LLVMValueRef fn = LLVMAddFunction(c->module, "__clhls_printf_record",
                                      LLVMFunctionType(i32, params, 1 + nwords, 0));
    LLVMSetLinkage(fn, LLVMInternalLinkage);
    LLVMSetFunctionCallConv(fn, LLVMSPIRFUNCCallConv);
    unsigned always = LLVMGetEnumAttributeKindForName("alwaysinline", 12);
    LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                            LLVMCreateEnumAttribute(ctx, always, 0));
    LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(ctx, fn, "entry");
    LLVMBasicBlockRef write = LLVMAppendBasicBlockInContext(ctx, fn, "write");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(ctx, fn, "done");
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
    LLVMPositionBuilderAtEnd(b, entry);
    LLVMValueRef buf = LLVMGetParam(fn, 0);
    LLVMTypeRef atomic_params[2] = {gptr, i32};
    LLVMValueRef add = declare(c, "_Z10atomic_addPU3AS1Vjj", i32, atomic_params, 2);
    LLVMValueRef aargs[2] = {buf, LLVMConstInt(i32, bytes, 0)};
    LLVMValueRef offset = call(c, b, add, aargs, 2);
    unsigned room = HLS_PRINTF_BUFFER_BYTES - HLS_PRINTF_HEADER_BYTES - bytes;
    LLVMValueRef fits = LLVMBuildICmp(b, LLVMIntULE, offset, LLVMConstInt(i32, room, 0), "");
    LLVMBuildCondBr(b, fits, write, done);
    LLVMPositionBuilderAtEnd(b, write);
    LLVMValueRef at = LLVMBuildAdd(b, LLVMBuildZExt(b, offset, i64, ""),
                                   LLVMConstInt(i64, HLS_PRINTF_HEADER_BYTES, 0), "");
    for (unsigned i = 0; i < nwords; i++) {
        LLVMValueRef idx = i ? LLVMBuildAdd(b, at, LLVMConstInt(i64, 8 * i, 0), "") : at;
        LLVMValueRef p = LLVMBuildGEP2(b, i8, buf, &idx, 1, "");
        LLVMValueRef st = LLVMBuildStore(b, LLVMGetParam(fn, 1 + i), p);
        LLVMSetAlignment(st, 8);
    }
    LLVMBuildBr(b, done);
    LLVMPositionBuilderAtEnd(b, done);
    LLVMValueRef r = LLVMBuildPhi(b, i32, "");
    LLVMValueRef vals[2] = {LLVMConstInt(i32, 0, 0), LLVMConstInt(i32, (unsigned long long)-1, 1)};
    LLVMBasicBlockRef from[2] = {write, entry};
    LLVMAddIncoming(r, vals, from, 2);
    LLVMBuildRet(b, r);
    LLVMDisposeBuilder(b);
    return fn;
}

/* Rewrites one printf call of the kernel whose buffer parameter is buf. */
static void rewrite_call(hls_compile *c, hls_printf_kernel *pk, LLVMValueRef inst,
                         LLVMValueRef buf)
{
    hls_loc loc = hls_llvm_loc(c, inst);
    LLVMContextRef ctx = c->llvm;
    LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx), i64 = LLVMInt64TypeInContext(ctx);
    unsigned nops = (unsigned)LLVMGetNumArgOperands(inst);
    size_t len;
    const char *text = nops ? constant_string(LLVMGetOperand(inst, 0), &len) : NULL;
    if (!text) {
        hls_error(&c->diag, loc, "printf: the format must be a string literal");
        return;
    }
    const char *format = arena_printf(&c->arena, "%.*s", (int)len, text);
    site *s = arena_alloc(&c->arena, sizeof *s);
    s->c = c;
    s->pk = pk;
    s->b = LLVMCreateBuilderInContext(ctx);
    LLVMPositionBuilderBefore(s->b, inst);
    LLVMSetCurrentDebugLocation2(s->b, LLVMInstructionGetDebugLoc(inst));
    /* The record's header: format id and global ids, 32 bits each. */
    int id = pk->nformats + 1;
    s->fields[s->nfields++] = (field){LLVMConstInt(i32, (unsigned)id, 0), 0};
    LLVMValueRef gid = declare(c, "_Z13get_global_idj", i64, &i32, 1);
    for (unsigned d = 0; d < 3; d++) {
        LLVMValueRef dim = LLVMConstInt(i32, d, 0);
        LLVMValueRef g = call(c, s->b, gid, &dim, 1);
        s->fields[s->nfields++] = (field){LLVMBuildTrunc(s->b, g, i32, ""), 4 + 4 * d};
    }
    s->bytes = HLS_PRINTF_RECORD_HEADER;

    unsigned next = 1; /* next argument operand */
    int bad = 0;
    for (const char *p = format; *p && !bad; p++) {
        if (*p != '%')
            continue;
        hls_printf_spec cv;
        int n = hls_printf_parse_spec(p + 1, &cv);
        if (n < 0) {
            hls_error(&c->diag, loc, "printf: invalid conversion specification '%.*s'",
                      (int)(strcspn(p + 1, "diouxXcsfFeEgGaAp%") + 2), p);
            bad = 1;
            break;
        }
        if (n == 0) { /* %% */
            p++;
            continue;
        }
        p += n;
        int stars = cv.star_width + cv.star_prec;
        if (next + (unsigned)stars + 1 > nops) {
            hls_error(&c->diag, loc, "printf: the format has more conversions than arguments");
            bad = 1;
            break;
        }
        for (int i = 0; i < stars && !bad; i++) {
            LLVMValueRef v = LLVMGetOperand(inst, next++);
            if (LLVMGetTypeKind(LLVMTypeOf(v)) != LLVMIntegerTypeKind) {
                hls_error(&c->diag, loc, "printf: a '*' width or precision takes an int");
                bad = 1;
            } else {
                bad = add_value(s, v, 0, loc) != 0;
            }
        }
        if (bad)
            break;
        LLVMValueRef v = LLVMGetOperand(inst, next++);
        if (cv.conv == 's') {
            size_t slen;
            const char *str = constant_string(v, &slen);
            if (!str) {
                hls_error(&c->diag, loc, "printf: the argument of %%s must be a string literal");
                bad = 1;
                break;
            }
            unsigned off;
            hls_printf_arg *a = &s->args[s->nargs];
            if (s->nargs == (int)(sizeof s->args / sizeof *s->args) ||
                add_scalar(s, LLVMConstInt(i32, string_id(s, str, slen), 0), 4, &off)) {
                hls_error(&c->diag, loc, "printf: too many arguments");
                bad = 1;
                break;
            }
            *a = (hls_printf_arg){.kind = 's', .bytes = 4, .lanes = 1, .offset = off};
            s->nargs++;
            continue;
        }
        bad = add_value(s, v, cv.lanes, loc) != 0;
    }
    if (bad) {
        LLVMDisposeBuilder(s->b);
        return;
    }
    s->bytes = align_to(s->bytes, 8);

    /* The record's words: each value shifted into the 64-bit word holding it. */
    unsigned nwords = s->bytes / 8;
    LLVMValueRef words[1 + nwords];
    words[0] = buf;
    for (unsigned w = 0; w < nwords; w++)
        words[1 + w] = LLVMConstInt(i64, 0, 0);
    for (int i = 0; i < s->nfields; i++) {
        field *f = &s->fields[i];
        LLVMValueRef x = LLVMGetIntTypeWidth(LLVMTypeOf(f->v)) < 64
                             ? LLVMBuildZExt(s->b, f->v, i64, "")
                             : f->v;
        if (f->offset % 8)
            x = LLVMBuildShl(s->b, x, LLVMConstInt(i64, 8 * (f->offset % 8), 0), "");
        LLVMValueRef *word = &words[1 + f->offset / 8];
        *word = LLVMIsAConstantInt(*word) && !LLVMConstIntGetZExtValue(*word)
                    ? x
                    : LLVMBuildOr(s->b, *word, x, "");
    }
    LLVMValueRef writer = record_writer(c, s->bytes);
    LLVMValueRef r = call(c, s->b, writer, words, 1 + nwords);
    LLVMReplaceAllUsesWith(inst, r);
    LLVMInstructionEraseFromParent(inst);
    LLVMDisposeBuilder(s->b);

    hls_printf_format *grown =
        arena_alloc(&c->arena, (size_t)(pk->nformats + 1) * sizeof *grown);
    if (pk->nformats)
        memcpy(grown, pk->formats, (size_t)pk->nformats * sizeof *grown);
    hls_printf_format *fm = &grown[pk->nformats];
    fm->format = format;
    fm->bytes = s->bytes;
    fm->nargs = s->nargs;
    fm->args = arena_alloc(&c->arena, (size_t)(s->nargs + 1) * sizeof *fm->args);
    memcpy(fm->args, s->args, (size_t)s->nargs * sizeof *fm->args);
    pk->formats = grown;
    pk->nformats++;
}

static void copy_attributes(LLVMValueRef from, LLVMValueRef to, LLVMAttributeIndex index)
{
    unsigned n = LLVMGetAttributeCountAtIndex(from, index);
    if (!n)
        return;
    LLVMAttributeRef attrs[n];
    LLVMGetAttributesAtIndex(from, index, attrs);
    for (unsigned i = 0; i < n; i++)
        LLVMAddAttributeAtIndex(to, index, attrs[i]);
}

/* Replaces the kernel by a new function (at the end of the module) with the same
 * body, attributes and metadata, and the printf buffer as one more parameter when
 * add_buffer is set. */
static LLVMValueRef rebuild(hls_compile *c, LLVMValueRef old, int add_buffer)
{
    LLVMTypeRef ft = LLVMGlobalGetValueType(old);
    unsigned n = LLVMCountParamTypes(ft);
    LLVMTypeRef params[n + 1];
    LLVMGetParamTypes(ft, params);
    params[n] = LLVMPointerTypeInContext(c->llvm, 1);
    LLVMTypeRef nt = LLVMFunctionType(LLVMGetReturnType(ft), params, n + (add_buffer != 0), 0);
    size_t len;
    char *name = arena_strdup(&c->arena, LLVMGetValueName2(old, &len));
    LLVMSetValueName2(old, "", 0);
    LLVMValueRef fn = LLVMAddFunction(c->module, name, nt);
    LLVMSetFunctionCallConv(fn, LLVMGetFunctionCallConv(old));
    LLVMSetLinkage(fn, LLVMGetLinkage(old));
    LLVMSetVisibility(fn, LLVMGetVisibility(old));
    copy_attributes(old, fn, LLVMAttributeFunctionIndex);
    copy_attributes(old, fn, LLVMAttributeReturnIndex);
    for (unsigned i = 0; i < n; i++)
        copy_attributes(old, fn, i + 1);
    size_t nmd;
    LLVMValueMetadataEntry *md = LLVMGlobalCopyAllMetadata(old, &nmd);
    for (size_t i = 0; i < nmd; i++)
        LLVMGlobalSetMetadata(fn, LLVMValueMetadataEntriesGetKind(md, (unsigned)i),
                              LLVMValueMetadataEntriesGetMetadata(md, (unsigned)i));
    LLVMDisposeValueMetadataEntries(md);
    LLVMGlobalClearMetadata(old);
    LLVMBasicBlockRef bb;
    while ((bb = LLVMGetFirstBasicBlock(old))) {
        LLVMRemoveBasicBlockFromParent(bb);
        LLVMAppendExistingBasicBlock(fn, bb);
    }
    for (unsigned i = 0; i < n; i++) {
        LLVMValueRef p = LLVMGetParam(old, i), q = LLVMGetParam(fn, i);
        const char *pname = LLVMGetValueName2(p, &len);
        char *copy = arena_printf(&c->arena, "%.*s", (int)len, pname);
        LLVMReplaceAllUsesWith(p, q);
        LLVMSetValueName2(q, copy, len);
    }
    if (add_buffer)
        LLVMSetValueName2(LLVMGetParam(fn, n), HLS_PRINTF_BUFFER_ARG,
                          strlen(HLS_PRINTF_BUFFER_ARG));
    LLVMReplaceAllUsesWith(old, fn);
    LLVMDeleteFunction(old);
    return fn;
}

static int is_printf(LLVMValueRef inst)
{
    if (LLVMGetInstructionOpcode(inst) != LLVMCall)
        return 0;
    LLVMValueRef callee = LLVMGetCalledValue(inst);
    size_t len;
    return LLVMIsAFunction(callee) && !strcmp(LLVMGetValueName2(callee, &len), "printf");
}

static int count_printf(LLVMValueRef fn)
{
    int n = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
            n += is_printf(i);
    return n;
}

const hls_printf_kernel *hls_printf_find(const hls_compile *c, const char *name)
{
    for (const hls_printf_kernel *pk = c->printf_kernels; pk; pk = pk->next)
        if (!strcmp(pk->name, name))
            return pk;
    return NULL;
}

int hls_printf(hls_compile *c)
{
    /* The kernels in module order; from the first that calls printf on, each is
     * rebuilt at the end of the module, so the order stays. */
    int nk = 0, first = -1;
    for (LLVMValueRef fn = LLVMGetFirstFunction(c->module); fn; fn = LLVMGetNextFunction(fn))
        nk += !LLVMIsDeclaration(fn) && LLVMGetFunctionCallConv(fn) == LLVMSPIRKERNELCallConv;
    if (!nk)
        return HLS_OK;
    LLVMValueRef *kernels = arena_alloc(&c->arena, (size_t)nk * sizeof *kernels);
    int *calls = arena_alloc(&c->arena, (size_t)nk * sizeof *calls);
    nk = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(c->module); fn; fn = LLVMGetNextFunction(fn)) {
        if (LLVMIsDeclaration(fn) || LLVMGetFunctionCallConv(fn) != LLVMSPIRKERNELCallConv)
            continue;
        calls[nk] = count_printf(fn);
        if (calls[nk] && first < 0)
            first = nk;
        kernels[nk++] = fn;
    }
    if (first < 0)
        return HLS_OK;
    int before = c->diag.errors;
    hls_printf_kernel **tail = &c->printf_kernels;
    for (int k = first; k < nk; k++) {
        LLVMValueRef fn = rebuild(c, kernels[k], calls[k] > 0);
        if (!calls[k])
            continue;
        hls_printf_kernel *pk = arena_alloc(&c->arena, sizeof *pk);
        size_t len;
        pk->name = arena_strdup(&c->arena, LLVMGetValueName2(fn, &len));
        *tail = pk;
        tail = &pk->next;
        LLVMValueRef buf = LLVMGetParam(fn, LLVMCountParams(fn) - 1);
        LLVMValueRef *sites = arena_alloc(&c->arena, (size_t)calls[k] * sizeof *sites);
        int n = 0;
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
             bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
                if (is_printf(i))
                    sites[n++] = i;
        for (int i = 0; i < n; i++)
            rewrite_call(c, pk, sites[i], buf);
    }
    if (c->diag.errors > before)
        return HLS_ERR_UNSUPPORTED;

    /* The record writers, inlined; then nothing calls them. */
    return hls_run_llvm_passes(c, "always-inline,globaldce");
}
