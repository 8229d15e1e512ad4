/* Source of kernels.s (gcc 12.2 -O2 -g -S kernels.c; debug sections cut): the fixture
   of tests/mca.rs. */
#define N 64
void stencil(int n, int m, const double *u, double *v) {
    int i, j;
    for (j = 1; j < m - 1; j++)
        for (i = 1; i < n - 1; i++)
            v[j * n + i] = 0.25 * (u[j * n + i - 1] + u[j * n + i + 1]
                                   + u[(j - 1) * n + i] + u[(j + 1) * n + i]);
}
double dot(int n, const double *p, const double *q) {
    double s = 0.0;
    int i;
    for (i = 0; i < n; i++)
        s += p[i] * q[i];
    return s;
}
double a[N], b[N];
void scale(void) {
    int i;
    for (i = 0; i < N; i++)
        a[i] = 3.0 * b[i];
}
