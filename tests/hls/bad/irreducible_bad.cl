// expect: irreducible_bad.cl:9:5: error: irreducible control flow
// Two ways into one cycle (goto into the middle of a loop): no single header.
__kernel void spin(__global int *a, int n)
{
    int i = a[1];
    if (n > 3)
        goto inside;
again:
    i += 2;
inside:
    i ^= a[i & 7];
    if (i < n)
        goto again;
    a[0] = i;
}
