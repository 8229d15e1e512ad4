/* xmpc's own libcaf: gfortran's coarray ABI (-fcoarray=lib, gfortran 12:
 * libgfortran/caf/libcaf.h) over MPI-3 one-sided communication
 * (docs/local-view.md, "Fortran: xmpc's libcaf").
 *
 * Linking: the entry points are named __wrap__gfortran_caf_NAME, and the driver
 * links a program with -Wl,--wrap=_gfortran_caf_NAME for each of them (src/coarray.rs)
 * when every _gfortran_caf_* symbol its objects reference is one of them; otherwise it
 * links OpenCoarrays and these functions are never referenced. register, deregister and
 * sync_memory go through caf_f.c's wrappers, which call xmpc_caf_* here when no other
 * libcaf is linked.
 *
 * - One window per coarray (MPI_Win_allocate over a dup of MPI_COMM_WORLD), opened once
 *   with MPI_Win_lock_all and kept open. The images are the XMP runtime's executing
 *   nodes: the whole program (image i = world rank i - 1), or inside a `task` the
 *   task's nodes (image i = the task's i-th node, translated to its world rank; sync
 *   all and the collectives use the task's communicator), as in Omni.
 * - A put is completed locally before it returns (the user may reuse the buffer) and at
 *   the target at the next image control statement: the window is marked written, and
 *   sync all / sync images / sync memory / lock / unlock / event post flush only the
 *   windows written since the last one. Any later put, get or atomic on a written
 *   window flushes its target first (MPI orders nothing between two accesses to one
 *   target without a flush).
 * - Strided remote sections: an MPI datatype of nested hvectors; strided local sections
 *   are packed into (unpacked from) a buffer. Kind conversion between integer, real and
 *   complex kinds, and character length changes, are done on the packed buffer.
 * - Locks (and critical) are 64-bit words taken with MPI_Compare_and_swap (owner rank
 *   + 1); events are 64-bit counters (MPI_Fetch_and_op); atomics are MPI accumulate ops.
 * - Anything else (vector subscripts, allocatable components, char kind conversion)
 *   stops the program with a message naming it.
 */
#include <mpi.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <complex.h>
#include "caf_lib.h"

#define CAF(name) __wrap__gfortran_caf_##name

static MPI_Comm caf_comm = MPI_COMM_NULL, caf_sync_comm = MPI_COMM_NULL;
static int caf_me, caf_np, caf_inited, caf_we_started_mpi;
static tok_t *toks;
static int ndirty; /* windows marked written */
static uint64_t cached_gen = UINT64_MAX; /* cur_images(): none cached yet */

void caf_fail(const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  fprintf(stderr, "[image %d] xmpc libcaf: %s\n", caf_me + 1, msg);
  fflush(stderr);
  xmpc_rt_abort(1);
}

static void set_stat(int *stat, int v) {
  if (stat) *stat = v;
}

/* ---------------------------------------------------------------- start, end */

void CAF(init)(int *argc, char ***argv) {
  if (caf_inited) return;
  int up = 0;
  MPI_Initialized(&up);
  if (!up) {
    int prov;
    MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &prov);
    caf_we_started_mpi = 1;
  }
  caf_inited = 1;
  MPI_Comm_dup(MPI_COMM_WORLD, &caf_comm);
  MPI_Comm_dup(MPI_COMM_WORLD, &caf_sync_comm);
  MPI_Comm_rank(caf_comm, &caf_me);
  MPI_Comm_size(caf_comm, &caf_np);
  cached_gen = UINT64_MAX; /* the whole program's images are known now */
}

static void ensure_init(void) {
  if (!caf_inited) CAF(init)(NULL, NULL);
}

static void win_release(tok_t *t);
static tok_t *pool; /* see pool_take */
static int npool;

void CAF(finalize)(void) {
  if (!caf_inited) return;
  caf_flush_dirty();
  MPI_Barrier(caf_comm);
  while (toks) {
    tok_t *t = toks;
    toks = t->next;
    win_release(t);
  }
  while (pool) {
    tok_t *t = pool;
    pool = t->next;
    win_release(t);
  }
  npool = 0;
  MPI_Comm_free(&caf_sync_comm);
  MPI_Comm_free(&caf_comm);
  caf_inited = 0;
  int done = 0;
  MPI_Finalized(&done);
  if (!done) MPI_Finalize();
}

/* The executing images: the XMP runtime's executing nodes. Inside a `task` they are
 * the task's nodes (as in Omni): xmpc_rt_exec_images (runtime/lib/xmp/src/inquiry.rs)
 * gives their world ranks, this process's index among them and their communicator;
 * it returns NULL outside any task (and before the XMP runtime starts or after it
 * ends), where the images are the whole program's. Windows stay over MPI_COMM_WORLD,
 * so an image is translated to its world rank. */
extern const int *xmpc_rt_exec_images(int *n, int *rank, int *comm);
/* bumped by the XMP runtime whenever its executing nodes change (runtime/lib/xmp/src/state.rs):
 * the images are asked for again only then */
extern uint64_t xmpc_rt_exec_gen;

typedef struct {
  const int *world; /* NULL: the whole program (image i = rank i - 1) */
  int n, me;        /* number of images, this image - 1 */
  int fcomm;        /* their communicator (Fortran handle) when world != NULL */
} imgs_t;

static imgs_t cached; /* the executing images as of cached_gen */

/* Omni's `image(p)` directive (xmpf_image_push / xmpf_image_pop around the statement
 * that follows it): the images are p's nodes for that statement */
#define IMG_MAX 8
static imgs_t img_stack[IMG_MAX];
static int img_depth;

static imgs_t cur_images(void) {
  if (img_depth > 0) return img_stack[img_depth - 1];
  uint64_t g = __atomic_load_n(&xmpc_rt_exec_gen, __ATOMIC_RELAXED);
  if (g != cached_gen) {
    imgs_t s = {NULL, caf_np, caf_me, 0};
    int n, me, c;
    const int *w = xmpc_rt_exec_images(&n, &me, &c);
    if (w) s = (imgs_t){w, n, me, c};
    cached = s;
    cached_gen = g;
  }
  return cached;
}

int CAF(this_image)(int distance) {
  (void)distance;
  ensure_init();
  return cur_images().me + 1;
}
int CAF(num_images)(int distance, int failed) {
  (void)distance;
  (void)failed;
  ensure_init();
  return cur_images().n;
}

/* world rank of a 1-based image index of the executing images; 0 is the executing
 * image (gfortran passes 0 for an atom, lock or event without coindex). */
int caf_rank(int image) {
  if (image == 0) return caf_me;
  imgs_t s = cur_images();
  if (image < 1 || image > s.n)
    caf_fail("image %d is out of range (there are %d images%s)", image, s.n, s.world ? " in the executing task" : "");
  return s.world ? s.world[image - 1] : image - 1;
}
int caf_tok_rank(const tok_t *t, int image) {
  if (t && t->win_local) {
    if (image == 0) return t->on_me;
    if (image < 1 || image > t->on_n)
      caf_fail("image %d is out of range (the coarray was allocated in a `task` of %d nodes)", image, t->on_n);
    return image - 1;
  }
  if (!t || !t->on_world || image == 0) return caf_rank(image);
  if (image < 1 || image > t->on_n)
    caf_fail("image %d is out of range (the coarray's `coarray on` node set has %d nodes)", image, t->on_n);
  return t->on_world[image - 1];
}
int caf_my_rank(void) { return caf_me; }
int caf_tok_me(const tok_t *t) { return t && t->win_local ? t->on_me : caf_me; }
int caf_images(void) { return cur_images().n; }

/* the communicator of a collective or sync all among the executing images, and (when
 * image > 0) the rank there of that 1-based image */
MPI_Comm caf_coll_comm(int image, int *root, const char *what) {
  imgs_t s = cur_images();
  if (image > 0) {
    if (image > s.n)
      caf_fail("%s: image %d is out of range (there are %d images%s)", what, image, s.n, s.world ? " in the executing task" : "");
    *root = image - 1;
  }
  if (!s.world) return caf_comm;
  MPI_Comm c = MPI_Comm_f2c(s.fcomm);
  if (c == MPI_COMM_NULL) caf_fail("%s inside a `task nocomm`: its nodes have no communicator", what);
  return c;
}

/* a whole-program coarray's (de)allocation is collective over all images: refused inside
 * a task, whose images are a subset (a coarray allocated in a task is the task's: its
 * window is over the task's nodes, win_local) */
static void whole_program(const char *what) {
  imgs_t s = cur_images();
  if (s.world)
    caf_fail("%s a coarray inside a `task` (images = the task's %d nodes) is not supported: (de)allocate it outside the task", what,
             s.n);
}

/* ---------------------------------------------------------------- registration */

enum { REG_STATIC, REG_ALLOC, LOCK_STATIC, LOCK_ALLOC, CRITICAL, EVENT_STATIC, EVENT_ALLOC, ALLOC_REGISTER_ONLY, ALLOC_ALLOCATE_ONLY };

/* memory the next coarray registration uses instead of its own (xmpc_caf_adopt) */
static void *adopt_addr;
static size_t adopt_bytes;

/* The next coarray registered (the `allocate` that follows) is `bytes` bytes at `addr`,
 * memory of the program's (an aligned array's local block, named by a coarray
 * `local_alias`, backends/src/fortran/local_alias.rs): its window is made over that
 * memory, which is neither cleared nor freed. */
void xmpc_caf_adopt(void *addr, size_t bytes) {
  adopt_addr = addr;
  adopt_bytes = bytes;
}

/* The coarray and offset of a coindexed access. gfortran passes a coarray dummy's token
 * and offset as hidden arguments; a caller without an explicit interface (Omni accepts
 * it: FFB-MINI passes coarrays through ordinary dummies into DDCOMX's coarray dummies)
 * passes none, and the callee reads whatever the registers hold (a null window, issue
 * 40 cause 9). The local address of the accessed data (the descriptor's base_addr)
 * tells which registered coarray it is and where: it wins whenever it lies in one, as
 * Omni finds a coarray by its address. Otherwise the token must be a registered one. */
tok_t *caf_resolve(void *token, size_t *offset, const void *local) {
  const char *a = local;
  for (tok_t *t = toks; t; t = t->next) {
    if (a && a >= t->base && a < t->base + t->size) {
      *offset = (size_t)(a - t->base);
      return t;
    }
  }
  for (tok_t *t = toks; t; t = t->next)
    if (t == token) return t;
  caf_fail("a coindexed object that is not in a registered coarray (a coarray dummy whose actual argument is not a "
           "coarray?)");
}

/* Windows of deallocated allocatable coarrays, kept for the next allocation of the
 * same size: FFB-MINI's DDCOMX allocates and frees a coarray at every call, and
 * MPI_Win_allocate/MPI_Win_free (collective, shared-memory segments) cost
 * milliseconds each, much more on a crowded node, where Omni's allocator reuses its
 * memory pool. Every image allocates and deallocates coarrays of the same sizes in
 * the same order, so each finds the same window here. At most POOL_MAX are kept. */
enum { POOL_MAX = 32 };

/* the pooled window of `alloc` bytes (`fresh` freed), else `fresh` */
static tok_t *pool_take(tok_t *fresh, size_t alloc) {
  for (tok_t **p = &pool; *p; p = &(*p)->next) {
    if ((*p)->size == alloc) {
      tok_t *t = *p;
      *p = t->next;
      npool--;
      t->next = t->prev = NULL;
      free(fresh);
      return t;
    }
  }
  return fresh;
}

static void win_release(tok_t *t) {
  MPI_Win_unlock_all(t->win);
  MPI_Win_free(&t->win); /* collective: the implied sync of deallocate */
  if (t->win_local) free((void *)t->on_world);
  free(t);
}

void xmpc_caf_register(size_t size, int type, void **token, gfc_desc_t *desc, int *stat, char *errmsg, size_t errmsg_len) {
  (void)errmsg;
  (void)errmsg_len;
  ensure_init();
  imgs_t in_task = cur_images();
  if (type == ALLOC_REGISTER_ONLY) {
    /* the token of an allocatable or pointer component of a derived-type coarray:
     * no memory until the component is allocated (ALLOCATE_ONLY, refused below), and a
     * remote access to it is gfortran's *_by_ref (refused at translation, XMP0454).
     * Not in the window list. */
    tok_t *t = calloc(1, sizeof *t);
    if (!t) caf_fail("out of memory registering a coarray component");
    t->win = MPI_WIN_NULL;
    *token = t;
    set_stat(stat, 0);
    return;
  }
  if (type == ALLOC_ALLOCATE_ONLY)
    caf_fail("allocating an allocatable component of a derived-type coarray is not supported (build with XMPC_CAF=opencoarrays)");
  int sync_words = type == LOCK_STATIC || type == LOCK_ALLOC || type == CRITICAL || type == EVENT_STATIC || type == EVENT_ALLOC;
  /* inside a task (as in Omni) the coarray's images are the task's nodes: its window is
   * over the task's communicator; locks, events and local_alias memory stay whole-program */
  MPI_Comm wcomm = caf_comm;
  if (in_task.world) {
    if (sync_words || adopt_addr)
      caf_fail("allocating a %s coarray inside a `task` (images = the task's %d nodes) is not supported: allocate it outside the task",
               sync_words ? "lock or event" : "local_alias", in_task.n);
    wcomm = MPI_Comm_f2c(in_task.fcomm);
    if (wcomm == MPI_COMM_NULL) caf_fail("allocating a coarray inside a `task nocomm`: its nodes have no communicator");
  }
  /* locks and events: `size` counts elements; each is one 64-bit word here */
  size_t bytes = sync_words ? (size ? size : 1) * 8 : size;
  /* MPICH 4.0.2 gives wrong remote memory for MPI_Win_allocate sizes that are not a
   * multiple of 16 (docs/local-view.md): round up to 64 */
  size_t alloc = bytes ? (bytes + 63) & ~(size_t)63 : 64;
  tok_t *t = calloc(1, sizeof *t);
  if (!t) caf_fail("out of memory registering a coarray of %zu bytes", size);
  if (adopt_addr && !sync_words) {
    if (bytes > adopt_bytes) caf_fail("a local_alias coarray of %zu bytes over an array block of %zu bytes", bytes, adopt_bytes);
    t->base = adopt_addr;
    adopt_addr = NULL;
    if (MPI_Win_create(t->base, (MPI_Aint)adopt_bytes, 1, MPI_INFO_NULL, caf_comm, &t->win) != MPI_SUCCESS)
      caf_fail("MPI_Win_create of %zu bytes failed", adopt_bytes);
    t->size = adopt_bytes;
  } else if (type == REG_ALLOC && !in_task.world && (t = pool_take(t, alloc))->reusable) {
    /* (a task's windows are over its own communicator: never pooled) */
    /* a window of this size deallocated before: allocate's implied sync, no new window */
    MPI_Barrier(caf_comm);
    memset(t->base, 0, alloc);
    t->next = toks;
    if (toks) toks->prev = t;
    toks = t;
    *token = t;
    if (desc) desc->base_addr = t->base;
    set_stat(stat, 0);
    return;
  } else {
    if (MPI_Win_allocate((MPI_Aint)alloc, 1, MPI_INFO_NULL, wcomm, &t->base, &t->win) != MPI_SUCCESS)
      caf_fail("MPI_Win_allocate of %zu bytes failed", alloc);
    memset(t->base, 0, alloc);
    t->size = alloc;
    t->reusable = type == REG_ALLOC && !in_task.world;
  }
  if (in_task.world) {
    int *w = malloc(sizeof(int) * (size_t)in_task.n);
    if (!w) caf_fail("out of memory registering a coarray");
    memcpy(w, in_task.world, sizeof(int) * (size_t)in_task.n);
    t->on_world = w;
    t->on_n = in_task.n;
    t->on_me = in_task.me;
    t->win_local = 1;
  }
  MPI_Win_lock_all(MPI_MODE_NOCHECK, t->win);
  if (sync_words) MPI_Barrier(caf_comm); /* every image's words are zero before anyone locks or posts */
  t->next = toks;
  if (toks) toks->prev = t;
  toks = t;
  *token = t;
  if (desc) desc->base_addr = t->base;
  set_stat(stat, 0);
}

void xmpc_caf_deregister(void **token, int type, int *stat, char *errmsg, size_t errmsg_len) {
  (void)type;
  (void)errmsg;
  (void)errmsg_len;
  tok_t *t = token ? *token : NULL;
  if (!t) {
    set_stat(stat, 0);
    return;
  }
  if (t->win == MPI_WIN_NULL) { /* a component's token (ALLOC_REGISTER_ONLY) */
    free(t);
    *token = NULL;
    set_stat(stat, 0);
    return;
  }
  if (!t->win_local) whole_program("deallocating");
  if (t->dirty) {
    MPI_Win_flush_all(t->win);
    t->dirty = 0;
    ndirty--;
  }
  if (t->prev) t->prev->next = t->next;
  else toks = t->next;
  if (t->next) t->next->prev = t->prev;
  *token = NULL;
  set_stat(stat, 0);
  if (t->reusable && npool < POOL_MAX) {
    MPI_Barrier(caf_comm); /* the implied sync of deallocate: no image accesses it any more */
    t->next = pool;
    t->prev = NULL;
    pool = t;
    npool++;
    return;
  }
  win_release(t);
}

/* ---------------------------------------------------------------- synchronisation */

void caf_mark_dirty(tok_t *t) {
  if (!t->dirty) {
    t->dirty = 1;
    ndirty++;
  }
}

void caf_flush_dirty(void) {
  if (!ndirty) return;
  for (tok_t *t = toks; t; t = t->next)
    if (t->dirty) {
      MPI_Win_flush_all(t->win);
      t->dirty = 0;
    }
  ndirty = 0;
}

/* the other images' completed puts become visible to this image's loads */
static void caf_acquire(void) {
  for (tok_t *t = toks; t; t = t->next) MPI_Win_sync(t->win);
}

void CAF(sync_all)(int *stat, char *errmsg, size_t errmsg_len) {
  (void)errmsg;
  (void)errmsg_len;
  ensure_init();
  caf_flush_dirty();
  caf_acquire();
  MPI_Barrier(caf_coll_comm(0, NULL, "sync all"));
  caf_acquire();
  set_stat(stat, 0);
}

void xmpc_caf_sync_memory(int *stat, char *errmsg, size_t errmsg_len) {
  (void)errmsg;
  (void)errmsg_len;
  caf_flush_dirty();
  caf_acquire();
  set_stat(stat, 0);
}

/* count < 0: all images (sync images (*)) */
void CAF(sync_images)(int count, int images[], int *stat, char *errmsg, size_t errmsg_len) {
  (void)errmsg;
  (void)errmsg_len;
  ensure_init();
  caf_flush_dirty();
  caf_acquire();
  int n = count < 0 ? caf_images() : count;
  MPI_Request *rq = malloc(sizeof(MPI_Request) * 2 * (size_t)(n ? n : 1));
  char sb = 0, *rb = calloc((size_t)(n ? n : 1), 1);
  int k = 0;
  for (int i = 0; i < n; i++) {
    int r = caf_rank(count < 0 ? i + 1 : images[i]);
    if (r == caf_me) continue;
    MPI_Irecv(rb + i, 1, MPI_CHAR, r, 0, caf_sync_comm, &rq[k++]);
    MPI_Isend(&sb, 1, MPI_CHAR, r, 0, caf_sync_comm, &rq[k++]);
  }
  for (int i = 0; i < k; i++) MPI_Wait(&rq[i], MPI_STATUS_IGNORE);
  free(rq);
  free(rb);
  caf_acquire();
  set_stat(stat, 0);
}

/* ---------------------------------------------------------------- locks, critical */

void CAF(lock)(void *token, size_t index, int image, int *acquired, int *stat, char *errmsg, size_t errmsg_len) {
  (void)errmsg;
  (void)errmsg_len;
  tok_t *t = token;
  int r = caf_tok_rank(t, image);
  int64_t mine = caf_me + 1, zero = 0, old = -1;
  MPI_Aint disp = (MPI_Aint)(index * 8);
  caf_flush_dirty();
  for (int spin = 0;; spin++) {
    MPI_Compare_and_swap(&mine, &zero, &old, MPI_INT64_T, r, disp, t->win);
    MPI_Win_flush(r, t->win);
    if (old == 0) break;
    if (old == mine) {
      if (stat) {
        *stat = 1; /* STAT_LOCKED: already locked by this image */
        return;
      }
      caf_fail("lock: the lock variable on image %d is already locked by this image", r + 1);
    }
    if (acquired) {
      *acquired = 0;
      set_stat(stat, 0);
      return;
    }
    if (spin > 100) MPI_Win_flush(caf_me, t->win); /* progress */
  }
  if (acquired) *acquired = 1;
  caf_acquire();
  set_stat(stat, 0);
}

void CAF(unlock)(void *token, size_t index, int image, int *stat, char *errmsg, size_t errmsg_len) {
  (void)errmsg;
  (void)errmsg_len;
  tok_t *t = token;
  int r = caf_tok_rank(t, image);
  int64_t mine = caf_me + 1, zero = 0, old = -1;
  caf_flush_dirty(); /* the critical section's puts are complete before the release */
  MPI_Compare_and_swap(&zero, &mine, &old, MPI_INT64_T, r, (MPI_Aint)(index * 8), t->win);
  MPI_Win_flush(r, t->win);
  if (old != mine) {
    if (stat) {
      *stat = old == 0 ? 2 /* STAT_UNLOCKED */ : 3 /* STAT_LOCKED_OTHER_IMAGE */;
      return;
    }
    caf_fail("unlock: the lock variable on image %d is not locked by this image", r + 1);
  }
  set_stat(stat, 0);
}

/* ---------------------------------------------------------------- events */

void CAF(event_post)(void *token, size_t index, int image, int *stat, char *errmsg, size_t errmsg_len) {
  (void)errmsg;
  (void)errmsg_len;
  tok_t *t = token;
  int r = caf_tok_rank(t, image);
  int64_t one = 1, old;
  caf_flush_dirty(); /* the data before the post is complete at its targets */
  MPI_Fetch_and_op(&one, &old, MPI_INT64_T, r, (MPI_Aint)(index * 8), MPI_SUM, t->win);
  MPI_Win_flush(r, t->win);
  set_stat(stat, 0);
}

void CAF(event_wait)(void *token, size_t index, int until_count, int *stat, char *errmsg, size_t errmsg_len) {
  (void)errmsg;
  (void)errmsg_len;
  tok_t *t = token;
  int64_t v = 0, dummy = 0, minus = -(int64_t)(until_count > 0 ? until_count : 1);
  MPI_Aint disp = (MPI_Aint)(index * 8);
  caf_flush_dirty();
  for (;;) {
    MPI_Fetch_and_op(&dummy, &v, MPI_INT64_T, caf_me, disp, MPI_NO_OP, t->win);
    MPI_Win_flush(caf_me, t->win);
    if (v >= -minus) break;
  }
  MPI_Fetch_and_op(&minus, &v, MPI_INT64_T, caf_me, disp, MPI_SUM, t->win);
  MPI_Win_flush(caf_me, t->win);
  caf_acquire();
  set_stat(stat, 0);
}

void CAF(event_query)(void *token, size_t index, int image, int *count, int *stat) {
  tok_t *t = token;
  int r = caf_tok_rank(t, image);
  int64_t v = 0, dummy = 0;
  MPI_Fetch_and_op(&dummy, &v, MPI_INT64_T, r, (MPI_Aint)(index * 8), MPI_NO_OP, t->win);
  MPI_Win_flush(r, t->win);
  *count = (int)v;
  set_stat(stat, 0);
}

/* ---------------------------------------------------------------- atomics */

static MPI_Datatype atomic_type(int type, int kind) {
  if (type != BT_INTEGER && type != BT_LOGICAL) caf_fail("atomic on type %d is not supported", type);
  switch (kind) {
  case 1: return MPI_INT8_T;
  case 2: return MPI_INT16_T;
  case 4: return MPI_INT32_T;
  case 8: return MPI_INT64_T;
  }
  caf_fail("atomic of kind %d is not supported", kind);
}

void CAF(atomic_define)(void *token, size_t offset, int image, void *value, int *stat, int type, int kind) {
  tok_t *t = token;
  int r = caf_tok_rank(t, image);
  caf_order(t, r);
  int64_t old;
  MPI_Fetch_and_op(value, &old, atomic_type(type, kind), r, (MPI_Aint)offset, MPI_REPLACE, t->win);
  MPI_Win_flush(r, t->win);
  set_stat(stat, 0);
}

void CAF(atomic_ref)(void *token, size_t offset, int image, void *value, int *stat, int type, int kind) {
  tok_t *t = token;
  int r = caf_tok_rank(t, image);
  caf_order(t, r);
  int64_t dummy = 0;
  MPI_Fetch_and_op(&dummy, value, atomic_type(type, kind), r, (MPI_Aint)offset, MPI_NO_OP, t->win);
  MPI_Win_flush(r, t->win);
  set_stat(stat, 0);
}

void CAF(atomic_cas)(void *token, size_t offset, int image, void *old, void *compare, void *new_val, int *stat, int type, int kind) {
  tok_t *t = token;
  int r = caf_tok_rank(t, image);
  caf_order(t, r);
  MPI_Compare_and_swap(new_val, compare, old, atomic_type(type, kind), r, (MPI_Aint)offset, t->win);
  MPI_Win_flush(r, t->win);
  set_stat(stat, 0);
}

/* op: GFC_CAF_ATOMIC_ADD = 1, _AND, _OR, _XOR (libgfortran.h); old is NULL for the
 * non-fetching forms */
void CAF(atomic_op)(int op, void *token, size_t offset, int image, void *value, void *old, int *stat, int type, int kind) {
  tok_t *t = token;
  int r = caf_tok_rank(t, image);
  caf_order(t, r);
  MPI_Op mop = op == 1 ? MPI_SUM : op == 2 ? MPI_BAND : op == 3 ? MPI_BOR : op == 4 ? MPI_BXOR : MPI_OP_NULL;
  if (mop == MPI_OP_NULL) caf_fail("atomic operation %d is not supported", op);
  int64_t scratch;
  MPI_Fetch_and_op(value, old ? old : &scratch, atomic_type(type, kind), r, (MPI_Aint)offset, mop, t->win);
  MPI_Win_flush(r, t->win);
  set_stat(stat, 0);
}

/* ---------------------------------------------------------------- stop */

void CAF(stop_numeric)(int code, bool quiet) {
  if (!quiet && code) fprintf(stderr, "STOP %d\n", code);
  fflush(stdout);
  CAF(finalize)();
  exit(code);
}
void CAF(stop_str)(const char *s, size_t len, bool quiet) {
  if (!quiet) fprintf(stderr, "STOP %.*s\n", (int)len, s);
  fflush(stdout);
  CAF(finalize)();
  exit(0);
}
void CAF(error_stop)(int code, bool quiet) {
  if (!quiet) fprintf(stderr, "ERROR STOP %d\n", code);
  fflush(stdout);
  fflush(stderr);
  xmpc_rt_abort(code ? code : 1);
}
void CAF(error_stop_str)(const char *s, size_t len, bool quiet) {
  if (!quiet) fprintf(stderr, "ERROR STOP %.*s\n", (int)len, s);
  fflush(stdout);
  fflush(stderr);
  xmpc_rt_abort(1);
}


/* ---------------------------------------------------------------- Omni's directives
 * `coarray on p :: a` and `image(p)` (backends/src/fortran/coarray_dirs.rs; Omni's
 * docs/STATUS-CAF.md 1.2): a node set's numbering instead of the executing task's. */

/* world ranks, size and this process's index (-1: not a member) of node set *h */
extern const int *xmpc_rt_nodes_images(const void *h, int *n, int *rank, int *comm);

static tok_t *tok_of(const void *addr, const char *what) {
  ensure_init();
  for (tok_t *t = toks; t; t = t->next)
    if (t->base && (const char *)addr >= t->base && (const char *)addr < t->base + (t->size ? t->size : 1)) return t;
  caf_fail("%s: the variable is not a registered coarray (an allocatable coarray in a `coarray` directive is not supported)", what);
}

/* `coarray on p :: a` (addr: loc(a)): a's coindices and this_image(a) number p's nodes */
void xmpf_coarray_on_(const int64_t *addr, const int64_t *h) {
  tok_t *t = tok_of((const void *)(intptr_t)*addr, "coarray directive");
  if (t->win_local) caf_fail("coarray directive: a coarray allocated inside a `task` is not supported");
  int n, me, c;
  const int *w = xmpc_rt_nodes_images((const void *)(intptr_t)*h, &n, &me, &c);
  if (!w) caf_fail("coarray directive: no node set");
  t->on_world = w;
  t->on_n = n;
  t->on_me = me;
}

/* this_image(a, dim) of a coarray of corank `corank` and cobounds lco/uco: the cosubscript
 * of this image in a's numbering (its `coarray on` node set when it has one; 0 when this
 * process is not one of its nodes, as Omni) */
int xmpf_coarray_cosub_on_(const int64_t *addr, const int *dim, const int *corank, const int *lco, const int *uco) {
  tok_t *t = tok_of((const void *)(intptr_t)*addr, "this_image");
  int k = t->on_world ? t->on_me : cur_images().me; /* 0-based, -1: not a node */
  if (*dim < 1 || *dim > *corank) caf_fail("this_image: dim %d is not in 1..%d", *dim, *corank);
  if (k < 0) return 0;
  for (int d = 0; d < *dim - 1; d++) k /= uco[d] - lco[d] + 1;
  if (*dim < *corank) k %= uco[*dim - 1] - lco[*dim - 1] + 1;
  return lco[*dim - 1] + k;
}

/* `image(p)`: the next statement's images are p's nodes (this process must be one) */
void xmpf_image_push_(const int64_t *h) {
  ensure_init();
  int n, me, c;
  const int *w = xmpc_rt_nodes_images((const void *)(intptr_t)*h, &n, &me, &c);
  if (!w) caf_fail("image directive: no node set");
  if (me < 0) caf_fail("image directive: this image is not a node of the node set");
  if (img_depth == IMG_MAX) caf_fail("image directive: nested too deep");
  img_stack[img_depth++] = (imgs_t){w, n, me, c};
}
void xmpf_image_pop_(void) {
  if (img_depth > 0) img_depth--;
}
