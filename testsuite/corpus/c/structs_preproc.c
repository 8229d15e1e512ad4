/*
 * Host-language breadth: structs, unions, enums, typedefs, function pointers,
 * static inline helpers, preprocessor conditionals around directives and code,
 * a distributed array of structs, labels and goto, switch, do-while.
 *
 * xmpc-test: np=4
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xmp.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#define NP 512
#define SQR(x) ((x) * (x))
#define CHECK(c, msg)                              \
    do {                                           \
        if (!(c)) {                                \
            fprintf(stderr, "check failed: %s\n", msg); \
            errors++;                              \
        }                                          \
    } while (0)

typedef enum { KIND_LIGHT = 1, KIND_HEAVY = 4 } kind_t;

typedef struct vec3 {
    double x, y, z;
} vec3;

struct particle {
    vec3 pos, vel;
    double mass;
    kind_t kind;
    union {
        int tag;
        float weight;
    } extra;
    struct particle *next;
};

typedef double (*energy_fn)(const struct particle *p);
typedef int (*cmp_fn)(const void *, const void *);

struct solver {
    const char *name;
    energy_fn energy;
    int steps;
    double dt;
};

#pragma xmp nodes p(4)
#pragma xmp template t(0:NP-1)
#pragma xmp distribute t(block) onto p

struct particle parts[NP];
#pragma xmp align parts[i] with t(i)

static inline double dot(const vec3 *a, const vec3 *b)
{
    return a->x * b->x + a->y * b->y + a->z * b->z;
}

static double kinetic(const struct particle *p)
{
    return 0.5 * p->mass * dot(&p->vel, &p->vel);
}

static double (*pick(int which))(const struct particle *)
{
    return which ? kinetic : NULL;
}

static int by_mass(const void *a, const void *b)
{
    const struct particle *pa = a, *pb = b;
    return (pa->mass > pb->mass) - (pa->mass < pb->mass);
}

int main(int argc, char **argv)
{
    int i, step, errors = 0;
    double e = 0.0, e0;
    struct solver s = { "leapfrog", kinetic, 4, 0.01 };
    cmp_fn cmp = by_mass;
    unsigned long nbytes = sizeof(struct particle) * NP;

    if (argc > 1)
        s.steps = atoi(argv[1]);

#pragma xmp loop on t(i)
    for (i = 0; i < NP; i++) {
        struct particle *q = &parts[i];
        memset(q, 0, sizeof *q);
        q->pos.x = i;
        q->vel.x = (i % 2) ? 1.0 : -1.0;
        q->vel.y = 0.5;
        q->mass = (i % 4 == 0) ? KIND_HEAVY : KIND_LIGHT;
        q->kind = (kind_t)(int)q->mass;
        q->extra.tag = i;
        q->next = NULL;
    }

#pragma xmp loop on t(i) reduction(+:e)
    for (i = 0; i < NP; i++)
        e += s.energy(&parts[i]);
    e0 = e;
#ifdef DEBUG
    fprintf(stderr, "initial energy %g\n", e0);
#endif

    step = 0;
again:
    if (step >= s.steps)
        goto done;
#pragma xmp loop on t(i)
    for (i = 0; i < NP; i++) {
        struct particle *q = &parts[i];
        q->pos.x += s.dt * q->vel.x;
        q->pos.y += s.dt * q->vel.y;
    }
    step++;
    goto again;
done:

    e = 0.0;
#pragma xmp loop on t(i) reduction(+:e)
    for (i = 0; i < NP; i++)
        e += pick(1)(&parts[i]);

    switch (s.steps) {
    case 0:
        break;
    case 1:
    case 2:
        CHECK(e == e0, "energy after few steps");
        break;
    default:
        CHECK(e == e0, "energy is conserved");
    }

    i = 0;
    do {
        i++;
    } while (i < 3 && SQR(i) < 100);
    CHECK(i == 3, "do-while");
    CHECK(xmp_node_num() != 1 || cmp(&parts[0], &parts[0]) == 0, "comparator");
    CHECK(nbytes / NP == sizeof(struct particle), "sizeof");

#if defined(_XMP) && !defined(QUIET)
    if (xmp_node_num() == 1)
        printf(errors == 0 ? "PASS\n" : "ERROR\n");
#else
    printf(errors == 0 ? "PASS\n" : "ERROR\n");
#endif
    return errors != 0;
}
