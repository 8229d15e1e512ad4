/*
 * OTF2 export of a BSIM run (src/export.rs) through the OTF2 C library of
 * Debian's libotf2-trace-dev, loaded with dlopen when an export is asked for:
 * skeletons link libxmpc_bsim.a without -lotf2, and a machine without the
 * library gets a clear error instead of a link failure.
 *
 * One location (CPU thread) per rank in one location group (process) per rank;
 * Enter/Leave per region (compute, each LMPI call), MpiSend/MpiRecv per message
 * on MPI_COMM_WORLD; timestamps in picoseconds of virtual time.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Must match src/export.rs (Otf2Ev). */
struct bsim_otf2_ev {
    uint64_t t;      /* ps */
    uint32_t kind;   /* 0 recv, 1 leave, 2 enter, 3 send */
    uint32_t region; /* enter/leave */
    uint32_t peer;   /* send: receiver, recv: sender (world rank) */
    uint32_t tag;
    uint64_t bytes;
};

#ifndef XMPC_HAVE_OTF2
int bsim_otf2_write(const char *dir, const char *name, uint32_t nranks, uint64_t tend, const char *const *regions,
                    uint32_t nregions, const struct bsim_otf2_ev *evs, const uint64_t *off, char *err, int cap) {
    (void)dir, (void)name, (void)nranks, (void)tend, (void)regions, (void)nregions, (void)evs, (void)off;
    snprintf(err, (size_t)cap, "BSIM was built without the OTF2 headers (install libotf2-trace-dev and rebuild)");
    return -1;
}
#else
#include <otf2/otf2.h>

#define FN(name) static __typeof__(name) *p_##name
FN(OTF2_Archive_Open);
FN(OTF2_Archive_Close);
FN(OTF2_Archive_SetFlushCallbacks);
FN(OTF2_Archive_SetSerialCollectiveCallbacks);
FN(OTF2_Archive_OpenEvtFiles);
FN(OTF2_Archive_CloseEvtFiles);
FN(OTF2_Archive_GetEvtWriter);
FN(OTF2_Archive_CloseEvtWriter);
FN(OTF2_Archive_OpenDefFiles);
FN(OTF2_Archive_CloseDefFiles);
FN(OTF2_Archive_GetDefWriter);
FN(OTF2_Archive_CloseDefWriter);
FN(OTF2_Archive_GetGlobalDefWriter);
FN(OTF2_EvtWriter_Enter);
FN(OTF2_EvtWriter_Leave);
FN(OTF2_EvtWriter_MpiSend);
FN(OTF2_EvtWriter_MpiRecv);
FN(OTF2_GlobalDefWriter_WriteClockProperties);
FN(OTF2_GlobalDefWriter_WriteString);
FN(OTF2_GlobalDefWriter_WriteRegion);
FN(OTF2_GlobalDefWriter_WriteSystemTreeNode);
FN(OTF2_GlobalDefWriter_WriteLocationGroup);
FN(OTF2_GlobalDefWriter_WriteLocation);
FN(OTF2_GlobalDefWriter_WriteGroup);
FN(OTF2_GlobalDefWriter_WriteComm);
FN(OTF2_Error_GetDescription);

static const char *load(void) {
    static void *h;
    static const char *why;
    if (h || why) return why;
    const char *names[] = {"libotf2.so", "libopen-trace-format2.so.10", "libopen-trace-format2.so"};
    for (unsigned i = 0; i < sizeof names / sizeof *names && !h; i++) h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (!h) return why = "the OTF2 library (libotf2.so) cannot be loaded: install libotf2-trace-dev";
#define LD(name)                                                                                                       \
    if (!(p_##name = (__typeof__(name) *)dlsym(h, #name))) return why = "the OTF2 library lacks " #name;
    LD(OTF2_Archive_Open) LD(OTF2_Archive_Close) LD(OTF2_Archive_SetFlushCallbacks)
    LD(OTF2_Archive_SetSerialCollectiveCallbacks) LD(OTF2_Archive_OpenEvtFiles) LD(OTF2_Archive_CloseEvtFiles)
    LD(OTF2_Archive_GetEvtWriter) LD(OTF2_Archive_CloseEvtWriter) LD(OTF2_Archive_OpenDefFiles)
    LD(OTF2_Archive_CloseDefFiles) LD(OTF2_Archive_GetDefWriter) LD(OTF2_Archive_CloseDefWriter)
    LD(OTF2_Archive_GetGlobalDefWriter) LD(OTF2_EvtWriter_Enter) LD(OTF2_EvtWriter_Leave) LD(OTF2_EvtWriter_MpiSend)
    LD(OTF2_EvtWriter_MpiRecv) LD(OTF2_GlobalDefWriter_WriteClockProperties) LD(OTF2_GlobalDefWriter_WriteString)
    LD(OTF2_GlobalDefWriter_WriteRegion) LD(OTF2_GlobalDefWriter_WriteSystemTreeNode)
    LD(OTF2_GlobalDefWriter_WriteLocationGroup) LD(OTF2_GlobalDefWriter_WriteLocation)
    LD(OTF2_GlobalDefWriter_WriteGroup) LD(OTF2_GlobalDefWriter_WriteComm) LD(OTF2_Error_GetDescription)
#undef LD
    return NULL;
}

static OTF2_FlushType pre_flush(void *u, OTF2_FileType ft, OTF2_LocationRef loc, void *cb, bool final) {
    (void)u, (void)ft, (void)loc, (void)cb, (void)final;
    return OTF2_FLUSH;
}
static OTF2_TimeStamp post_flush(void *u, OTF2_FileType ft, OTF2_LocationRef loc) {
    (void)u, (void)ft, (void)loc;
    return 0;
}
static OTF2_FlushCallbacks flush_cbs = {.otf2_pre_flush = pre_flush, .otf2_post_flush = post_flush};

#define CK(call)                                                                                                       \
    do {                                                                                                               \
        OTF2_ErrorCode e_ = (call);                                                                                    \
        if (e_ != OTF2_SUCCESS) {                                                                                      \
            snprintf(err, (size_t)cap, "%s: %s", #call, p_OTF2_Error_GetDescription(e_));                             \
            goto fail;                                                                                                 \
        }                                                                                                              \
    } while (0)

/* String ids: 0 "", 1 "bsim", 2 "node", 3 "MPI_COMM_WORLD", 4 "ranks", then
 * regions (5 + i), then "rank N" (5 + nregions + N). */
int bsim_otf2_write(const char *dir, const char *name, uint32_t nranks, uint64_t tend, const char *const *regions,
                    uint32_t nregions, const struct bsim_otf2_ev *evs, const uint64_t *off, char *err, int cap) {
    const char *why = load();
    if (why) {
        snprintf(err, (size_t)cap, "%s", why);
        return -1;
    }
    OTF2_Archive *ar = p_OTF2_Archive_Open(dir, name, OTF2_FILEMODE_WRITE, 1024 * 1024, 4 * 1024 * 1024,
                                           OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    uint64_t *members = NULL;
    char buf[64];
    if (!ar) {
        snprintf(err, (size_t)cap, "%s/%s: OTF2_Archive_Open failed", dir, name);
        return -1;
    }
    CK(p_OTF2_Archive_SetFlushCallbacks(ar, &flush_cbs, NULL));
    CK(p_OTF2_Archive_SetSerialCollectiveCallbacks(ar));
    CK(p_OTF2_Archive_OpenEvtFiles(ar));
    for (uint32_t r = 0; r < nranks; r++) {
        OTF2_EvtWriter *w = p_OTF2_Archive_GetEvtWriter(ar, r);
        if (!w) {
            snprintf(err, (size_t)cap, "OTF2_Archive_GetEvtWriter failed for rank %u", r);
            goto fail;
        }
        for (uint64_t i = off[r]; i < off[r + 1]; i++) {
            const struct bsim_otf2_ev *e = &evs[i];
            switch (e->kind) {
            case 0: CK(p_OTF2_EvtWriter_MpiRecv(w, NULL, e->t, e->peer, 0, e->tag, e->bytes)); break;
            case 1: CK(p_OTF2_EvtWriter_Leave(w, NULL, e->t, e->region)); break;
            case 2: CK(p_OTF2_EvtWriter_Enter(w, NULL, e->t, e->region)); break;
            default: CK(p_OTF2_EvtWriter_MpiSend(w, NULL, e->t, e->peer, 0, e->tag, e->bytes)); break;
            }
        }
        CK(p_OTF2_Archive_CloseEvtWriter(ar, w));
    }
    CK(p_OTF2_Archive_CloseEvtFiles(ar));
    CK(p_OTF2_Archive_OpenDefFiles(ar));
    for (uint32_t r = 0; r < nranks; r++) {
        OTF2_DefWriter *dw = p_OTF2_Archive_GetDefWriter(ar, r);
        if (dw) CK(p_OTF2_Archive_CloseDefWriter(ar, dw));
    }
    CK(p_OTF2_Archive_CloseDefFiles(ar));
    OTF2_GlobalDefWriter *g = p_OTF2_Archive_GetGlobalDefWriter(ar);
    if (!g) {
        snprintf(err, (size_t)cap, "OTF2_Archive_GetGlobalDefWriter failed");
        goto fail;
    }
    CK(p_OTF2_GlobalDefWriter_WriteClockProperties(g, 1000000000000ull, 0, tend, OTF2_UNDEFINED_TIMESTAMP));
    const char *fixed[] = {"", "bsim", "node", "MPI_COMM_WORLD", "ranks"};
    for (uint32_t i = 0; i < 5; i++) CK(p_OTF2_GlobalDefWriter_WriteString(g, i, fixed[i]));
    for (uint32_t i = 0; i < nregions; i++) CK(p_OTF2_GlobalDefWriter_WriteString(g, 5 + i, regions[i]));
    for (uint32_t r = 0; r < nranks; r++) {
        snprintf(buf, sizeof buf, "rank %u", r);
        CK(p_OTF2_GlobalDefWriter_WriteString(g, 5 + nregions + r, buf));
    }
    for (uint32_t i = 0; i < nregions; i++) {
        int mpi = strncmp(regions[i], "LMPI_", 5) == 0 || strncmp(regions[i], "MPI_", 4) == 0;
        CK(p_OTF2_GlobalDefWriter_WriteRegion(g, i, 5 + i, 5 + i, 0, mpi ? OTF2_REGION_ROLE_FUNCTION : OTF2_REGION_ROLE_CODE,
                                              mpi ? OTF2_PARADIGM_MPI : OTF2_PARADIGM_USER, OTF2_REGION_FLAG_NONE, 0, 0, 0));
    }
    CK(p_OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, 1, 2, OTF2_UNDEFINED_SYSTEM_TREE_NODE));
    for (uint32_t r = 0; r < nranks; r++)
        CK(p_OTF2_GlobalDefWriter_WriteLocationGroup(g, r, 5 + nregions + r, OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                                                     OTF2_UNDEFINED_LOCATION_GROUP));
    for (uint32_t r = 0; r < nranks; r++)
        CK(p_OTF2_GlobalDefWriter_WriteLocation(g, r, 5 + nregions + r, OTF2_LOCATION_TYPE_CPU_THREAD, off[r + 1] - off[r], r));
    members = malloc(sizeof(uint64_t) * (nranks ? nranks : 1));
    for (uint32_t r = 0; r < nranks; r++) members[r] = r;
    CK(p_OTF2_GlobalDefWriter_WriteGroup(g, 0, 0, OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                         nranks, members));
    CK(p_OTF2_GlobalDefWriter_WriteGroup(g, 1, 4, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, nranks,
                                         members));
    CK(p_OTF2_GlobalDefWriter_WriteComm(g, 0, 3, 1, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE));
    free(members);
    members = NULL;
    {
        OTF2_ErrorCode e = p_OTF2_Archive_Close(ar);
        if (e != OTF2_SUCCESS) {
            snprintf(err, (size_t)cap, "OTF2_Archive_Close: %s", p_OTF2_Error_GetDescription(e));
            return -1;
        }
    }
    return 0;
fail:
    free(members);
    p_OTF2_Archive_Close(ar);
    return -1;
}
#endif
