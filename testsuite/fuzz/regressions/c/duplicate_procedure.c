void f(int *x, int *y) { *x = 2; *y = 3; }
void f(int *x) { *x = 1; }
