/* The OpenCL C 2.0 atomic functions (OpenCL C 3.0 section 6.15.12): atomic_init,
 * load, store, exchange, compare_exchange_{strong,weak}, fetch_{add,sub,or,xor,and,
 * min,max}, the atomic_flag functions and atomic_work_item_fence, each with its
 * _explicit forms, for every variant the headers declare: generic pointers (OpenCL C
 * 2.0, and 3.0 with the generic address space) and __global / __local pointers (3.0).
 * Each is one __sync builtin, so one LLVM atomicrmw or cmpxchg (the __opencl_atomic
 * builtins would become library calls: spir64 declares no lock-free width): a load is
 * a fetch-or of 0, a store an exchange, so that every atomic function is a
 * read-modify-write executed at memory (only atomic_init is a plain store, as the
 * specification allows). After inlining, address-space
 * inference gives each the pointer's real memory, and the compiler lowers it to the
 * memory side's read-modify-write (global) or the bank's (local). Atomics execute one
 * at a time per address and, in a work-item, after every earlier access of the same
 * memory and before every later one (hls/memorder.c): they are sequentially
 * consistent whatever order and scope the call names, so those arguments are unused
 * and a fence has nothing left to order. 64-bit min and max are compare-exchange
 * loops (clang's __sync min/max builtins are 32-bit only).
 *
 * Compiled as OpenCL C 3.0 with every feature on (hls/CMakeLists.txt), apart from the
 * OpenCL C 1.2 library, whose overloads would change with the generic address
 * space. */

#define OVL __attribute__((overloadable))
#define SAME(x) (x)

/* Every form of one operation: OP(args) names the body, which sees p (the object
 * pointer) and the value arguments. */
#define FORMS3(R, NAME, PARAMS, BODY)                                                   \
    R OVL NAME PARAMS BODY                                                              \
    R OVL NAME##_explicit(EXPAND_PARAMS PARAMS, memory_order order) BODY                \
    R OVL NAME##_explicit(EXPAND_PARAMS PARAMS, memory_order order, memory_scope scope) BODY
#define EXPAND_PARAMS(...) __VA_ARGS__

/* init, load, store, exchange on OS (an address-space qualifier, empty for generic)
 * pointers to atomic type AT of value type T, kept in integers of type IT: TO_BITS and
 * FROM_BITS convert. */
#define LOAD_STORE(OS, AT, T, IT, TO_BITS, FROM_BITS)                                   \
    void OVL atomic_init(volatile OS AT *p, T v) { *(volatile OS T *)p = v; }           \
    FORMS3(void, atomic_store, (volatile OS AT *p, T v),                                \
           { __sync_lock_test_and_set((volatile OS IT *)p, TO_BITS(v)); })              \
    FORMS3(T, atomic_load, (volatile OS AT *p),                                         \
           { return FROM_BITS(__sync_fetch_and_or((volatile OS IT *)p, 0)); })          \
    FORMS3(T, atomic_exchange, (volatile OS AT *p, T v),                                \
           { return FROM_BITS(__sync_lock_test_and_set((volatile OS IT *)p, TO_BITS(v))); })

/* compare_exchange_{strong,weak}: the expected value behind an ES pointer. A weak one
 * never fails spuriously here. */
#define CMPXCHG_BODY(OS, ES, T, IT, TO_BITS)                                            \
    {                                                                                   \
        IT want = TO_BITS(*expected);                                                   \
        IT old = __sync_val_compare_and_swap((volatile OS IT *)p, want, TO_BITS(v));    \
        if (old == want)                                                                \
            return true;                                                                \
        *(ES IT *)expected = old;                                                       \
        return false;                                                                   \
    }
#define CMPXCHG_FORMS(STRENGTH, OS, ES, AT, T, IT, TO_BITS)                             \
    bool OVL atomic_compare_exchange_##STRENGTH(volatile OS AT *p, ES T *expected, T v) \
        CMPXCHG_BODY(OS, ES, T, IT, TO_BITS)                                            \
    bool OVL atomic_compare_exchange_##STRENGTH##_explicit(                             \
        volatile OS AT *p, ES T *expected, T v, memory_order success, memory_order failure) \
        CMPXCHG_BODY(OS, ES, T, IT, TO_BITS)                                            \
    bool OVL atomic_compare_exchange_##STRENGTH##_explicit(                             \
        volatile OS AT *p, ES T *expected, T v, memory_order success, memory_order failure, \
        memory_scope scope) CMPXCHG_BODY(OS, ES, T, IT, TO_BITS)
#define CMPXCHG(OS, ES, AT, T, IT, TO_BITS)                                             \
    CMPXCHG_FORMS(strong, OS, ES, AT, T, IT, TO_BITS)                                   \
    CMPXCHG_FORMS(weak, OS, ES, AT, T, IT, TO_BITS)

/* fetch_OP with the __sync builtin SYNC; the operand of type VT. */
#define FETCH(OP, SYNC, OS, AT, T, VT)                                                  \
    FORMS3(T, atomic_fetch_##OP, (volatile OS AT *p, VT v),                             \
           { return SYNC((volatile OS T *)p, (T)v); })
/* 64-bit min and max: a compare-exchange loop. */
#define FETCH_LOOP(OP, OS, AT, T)                                                       \
    FORMS3(T, atomic_fetch_##OP, (volatile OS AT *p, T v), {                            \
        for (;;) {                                                                      \
            T old = __sync_fetch_and_or((volatile OS T *)p, 0);                         \
            if (__sync_bool_compare_and_swap((volatile OS T *)p, old, OP(old, v)))      \
                return old;                                                             \
        }                                                                               \
    })
#define FETCH_BITS(OS, AT, T)                                                           \
    FETCH(add, __sync_fetch_and_add, OS, AT, T, T)                                      \
    FETCH(sub, __sync_fetch_and_sub, OS, AT, T, T)                                      \
    FETCH(or, __sync_fetch_and_or, OS, AT, T, T)                                        \
    FETCH(xor, __sync_fetch_and_xor, OS, AT, T, T)                                      \
    FETCH(and, __sync_fetch_and_and, OS, AT, T, T)

#define FLAG(OS)                                                                        \
    FORMS3(bool, atomic_flag_test_and_set, (volatile OS atomic_flag *p),                \
           { return __sync_lock_test_and_set((volatile OS int *)p, 1) != 0; })          \
    FORMS3(void, atomic_flag_clear, (volatile OS atomic_flag *p),                       \
           { __sync_lock_test_and_set((volatile OS int *)p, 0); })

/* Everything on OS pointers; EXPECTED(OS, AT, T, IT, TO_BITS) gives the
 * compare-exchange forms. */
#define ALL(OS, EXPECTED)                                                               \
    LOAD_STORE(OS, atomic_int, int, int, SAME, SAME)                                    \
    LOAD_STORE(OS, atomic_uint, uint, uint, SAME, SAME)                                 \
    LOAD_STORE(OS, atomic_long, long, long, SAME, SAME)                                 \
    LOAD_STORE(OS, atomic_ulong, ulong, ulong, SAME, SAME)                              \
    LOAD_STORE(OS, atomic_float, float, int, as_int, as_float)                          \
    LOAD_STORE(OS, atomic_double, double, long, as_long, as_double)                     \
    EXPECTED(OS, atomic_int, int, int, SAME) EXPECTED(OS, atomic_uint, uint, uint, SAME) \
    EXPECTED(OS, atomic_long, long, long, SAME)                                         \
    EXPECTED(OS, atomic_ulong, ulong, ulong, SAME)                                      \
    EXPECTED(OS, atomic_float, float, int, as_int)                                      \
    EXPECTED(OS, atomic_double, double, long, as_long)                                  \
    FETCH_BITS(OS, atomic_int, int) FETCH_BITS(OS, atomic_uint, uint)                   \
    FETCH_BITS(OS, atomic_long, long) FETCH_BITS(OS, atomic_ulong, ulong)               \
    FETCH(min, __sync_fetch_and_min, OS, atomic_int, int, int)                          \
    FETCH(max, __sync_fetch_and_max, OS, atomic_int, int, int)                          \
    FETCH(min, __sync_fetch_and_umin, OS, atomic_uint, uint, uint)                      \
    FETCH(max, __sync_fetch_and_umax, OS, atomic_uint, uint, uint)                      \
    FETCH_LOOP(min, OS, atomic_long, long) FETCH_LOOP(max, OS, atomic_long, long)       \
    FETCH_LOOP(min, OS, atomic_ulong, ulong) FETCH_LOOP(max, OS, atomic_ulong, ulong)   \
    FETCH(add, __sync_fetch_and_add, OS, atomic_uintptr_t, uintptr_t, ptrdiff_t)        \
    FETCH(sub, __sync_fetch_and_sub, OS, atomic_uintptr_t, uintptr_t, ptrdiff_t)        \
    FLAG(OS)

/* Generic pointers: the expected value behind a generic pointer too. */
#define EXPECTED_GENERIC(OS, AT, T, IT, TO_BITS) CMPXCHG(OS, , AT, T, IT, TO_BITS)
/* __global and __local objects: the expected value in global, local or private memory. */
#define EXPECTED_NAMED(OS, AT, T, IT, TO_BITS)                                          \
    CMPXCHG(OS, __global, AT, T, IT, TO_BITS) CMPXCHG(OS, __local, AT, T, IT, TO_BITS)  \
    CMPXCHG(OS, __private, AT, T, IT, TO_BITS)

ALL(, EXPECTED_GENERIC)
ALL(__global, EXPECTED_NAMED)
ALL(__local, EXPECTED_NAMED)

/* Nothing to order: see the top of this file. */
void OVL atomic_work_item_fence(cl_mem_fence_flags flags, memory_order order, memory_scope scope)
{
}
