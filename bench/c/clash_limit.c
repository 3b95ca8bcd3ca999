/* Copied unchanged from the project's speed yardsticks (perf/clash_limit.c, outside the repository);
 * compiled by the benchmarks when gcc is present. Not project code; never shipped. */
/* clash_limit.c -- int64 C port of the clash force, resolve_exchange and exact preview (kind Assault), a speed yardstick.
 *
 * Build: gcc -O2 -march=native -o clash_limit clash_limit.c
 *        (variant: add -DBRANCHLESS for a fixed-10-step select-based bisection; same results)
 * Run:   ./clash_limit N [reps] [procs]
 *   Builds N specs in memory with a deterministic generator (nothing is read
 *   from files), previews all of them `reps` times (default 3) and prints the median previews/s,
 *   plus the checksums (sum of breakPermille + Ld bands; and a weighted full-output sum).
 *   procs > 1: each timed rep forks `procs` children over contiguous slices; wall time in parent.
 *
 * All divisions go through fdiv() (Python // semantics): C's / truncates toward zero and
 * (r-500)*vol is negative for r < 500.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

typedef int64_t i64;
typedef uint64_t u64;

static inline i64 fdiv(i64 a, i64 b) {            /* floor division, b != 0 */
    i64 q = a / b, r = a % b;
    return (r != 0 && ((r < 0) != (b < 0))) ? q - 1 : q;
}
static inline i64 imin(i64 a, i64 b) { return a < b ? a : b; }
static inline i64 imax(i64 a, i64 b) { return a > b ? a : b; }
static inline i64 clampi(i64 x, i64 lo, i64 hi) { return x < lo ? lo : x > hi ? hi : x; }

/* ---------------- tables (clash-tables.md); enum indices: see the arrays below ---- */
enum { FOOT, ARMOR, GUN, RECON, NAVAL, AIR };
enum { OPEN, HILLS, FOREST, MARSH, MOUNTAIN, URBAN, WATER };
enum { MARCH, ADVANCE, HOLD, ENTRENCH };

static const i64 I_OUT = 60, I_BACK = 60;          /* intensity Assault */
static const i64 FACTOR_LEAD = 1000, FACTOR_SUPPORT = 400;
static const i64 COMBINED_ARMS[4] = {0, 0, 120, 260};
static const i64 MOD_MIN = -700, MOD_MAX = 1800, VOL_FLOOR = 250, VOL_CAP = 1500;
static const i64 ROLE_TERRAIN[6][7] = {
    /* Foot  */ {50, 100, 150, 0, 200, 200, -500},
    /* Armor */ {200, 0, -300, -400, -500, -200, -500},
    /* Gun   */ {100, 0, -150, -200, -200, -100, -500},
    /* Recon */ {100, 100, 50, 0, 0, 0, -500},
    /* Naval */ {-300, -300, -300, -200, -300, -300, 100},
    /* Air   */ {100, 0, -100, 0, -100, -200, 100},
};
static const i64 COVER[7] = {-50, 200, 400, 150, 600, 500, 0};
static const i64 CHAOS[7] = {0, 100, 200, 300, 150, 400, 100};
#define ATK_NONE INT64_MIN
static const i64 ST_ATK[4] = {ATK_NONE, 250, 0, -400};
static const i64 ST_DEF[4] = {-300, -200, 0, 300};
static const i64 ST_RES[4] = {-5, -10, 0, 15};
static const i64 ST_SHOCK_DEALT[4] = {0, 6, 0, 0};
static const i64 ST_SHOCK_RET[4] = {0, 0, 5, 10};
static const i64 GRADE_POW[4] = {0, 80, 180, 300}, GRADE_RES[4] = {0, 5, 12, 20}, GRADE_VOL[4] = {1000, 850, 700, 550};
static const i64 SUP_POW[4] = {-400, -150, 0, 50}, SUP_RES[4] = {-15, -5, 0, 0}, SUP_VOL[4] = {300, 100, 0, -100};

/* ---------------- data ---------------- */
typedef struct {
    int32_t role, atk, def, tough, strength, disorder, grade, supply, stance, digIn, works, shaken;
} Unit;

typedef struct {
    int32_t terrain, flankers, stackExtra, edge, dextra, inOwnCity, encircled, volFloor /* -1: absent */, nsup;
    Unit lead, dfd, sup[2];
} Spec;

typedef struct {
    i64 A, D, volatility, reliability, resolveDefender, resolveAttacker;
} Force;

typedef struct {
    i64 s, A_eff, D_eff, shareA, shareD, Ld, La, shockDefender, shockAttacker;
    int defenderBreaks, attackerFalters;
} Exchange;

typedef struct {
    i64 Ld[3], La[3], shockDef[3], shockAtt[3];
    i64 rDef, rAtt, rSurv, breakP, falterP, destroyedP, winP, A, D, volatility;
} Preview;

/* ---------------- Step 1 ---------------- */
static inline i64 contribution(const Unit *u, i64 base, int ter, i64 factor) {
    i64 gp = GRADE_POW[u->grade], sp = SUP_POW[u->supply], rt = ROLE_TERRAIN[u->role][ter];
    return fdiv(base * u->strength * (1000 + gp + sp + rt) * factor, 100000000);
}

/* ---------------- Step 4 ---------------- */
static inline i64 resolve_value(const Unit *u, int defender_side, const Spec *sp) {
    i64 r = 40 + GRADE_RES[u->grade] + ST_RES[u->stance] + 6 * (i64)u->works + SUP_RES[u->supply]
          + ((defender_side && sp->inOwnCity) ? 10 : 0)
          - u->disorder - fdiv(100 - u->strength, 2)
          - ((defender_side && sp->encircled) ? 20 : 0)
          - (u->shaken > 0 ? 20 : 0);
    return clampi(r, 5, 95);
}

static inline void force(const Spec *sp, Force *f) {
    int ter = sp->terrain;
    const Unit *lead = &sp->lead, *dfd = &sp->dfd;
    i64 cLead = contribution(lead, lead->atk, ter, FACTOR_LEAD);
    i64 cSup = 0;
    for (int k = 0; k < sp->nsup; k++) cSup += contribution(&sp->sup[k], sp->sup[k].atk, ter, FACTOR_SUPPORT);
    i64 cDef = contribution(dfd, dfd->def, ter, FACTOR_LEAD);
    i64 A_raw = cLead + cSup, D_raw = cDef;
    /* attacker terms (Assault) */
    i64 sa = ST_ATK[lead->stance];
    i64 stanceTerm = (sa == ATK_NONE) ? 0 : sa;
    unsigned roles = 1u << lead->role;
    for (int k = 0; k < sp->nsup; k++) roles |= 1u << sp->sup[k].role;
    i64 nroles = __builtin_popcount(roles);
    i64 ca = COMBINED_ARMS[imin(3, nroles)];
    i64 am = stanceTerm + ca + sp->edge;
    /* defender terms */
    i64 dm = COVER[ter] + ST_DEF[dfd->stance] + 100 * imax(dfd->digIn, dfd->works)
           + 100 * imin(3, sp->stackExtra) + sp->dextra;
    am = clampi(am, MOD_MIN, MOD_MAX);
    dm = clampi(dm, MOD_MIN, MOD_MAX);
    f->A = imax(1, fdiv(A_raw * (1000 + am), 1000));
    f->D = imax(1, fdiv(D_raw * (1000 + dm), 1000));
    /* Step 3 */
    i64 vl = GRADE_VOL[lead->grade] + SUP_VOL[lead->supply];
    i64 vd = GRADE_VOL[dfd->grade] + SUP_VOL[dfd->supply];
    i64 floor_ = sp->volFloor >= 0 ? sp->volFloor : VOL_FLOOR;
    f->volatility = clampi(fdiv(vl + vd, 2) + CHAOS[ter], floor_, VOL_CAP);
    f->reliability = fdiv(f->volatility, 4);
    f->resolveDefender = resolve_value(dfd, 1, sp);
    f->resolveAttacker = resolve_value(lead, 0, sp);
}

static inline void resolve_exchange(const Spec *sp, i64 r, const Force *f, Exchange *o) {
    const Unit *lead = &sp->lead, *dfd = &sp->dfd;
    i64 vol = f->volatility;
    i64 s = fdiv((r - 500) * vol, 2000);
    i64 A_eff = imax(1, fdiv(f->A * (1000 + s), 1000));
    i64 D_eff = imax(1, fdiv(f->D * (1000 - s), 1000));
    i64 shareA = fdiv(A_eff * 1000, A_eff + D_eff);
    i64 shareD = 1000 - shareA;
    i64 Ld = imin(dfd->strength, fdiv(I_OUT * shareA * 100, 1000 * (i64)dfd->tough));
    i64 La = imin(lead->strength, fdiv(I_BACK * shareD * 100, 1000 * (i64)lead->tough));
    /* Assault */
    i64 flank = 8 * imin(4, sp->flankers);
    i64 ssD = ST_SHOCK_DEALT[lead->stance];
    i64 ssA = ST_SHOCK_RET[dfd->stance];
    i64 worksShock = imin(16, 8 * (i64)dfd->works);
    o->s = s; o->A_eff = A_eff; o->D_eff = D_eff; o->shareA = shareA; o->shareD = shareD;
    o->Ld = Ld; o->La = La;
    o->shockDefender = Ld + flank + ssD;
    o->shockAttacker = La + ssA + worksShock;
    o->defenderBreaks = o->shockDefender >= f->resolveDefender;
    o->attackerFalters = (o->shockAttacker >= f->resolveAttacker) && !o->defenderBreaks;
}

static inline void sort3(i64 *v) {
    i64 t;
    if (v[0] > v[1]) { t = v[0]; v[0] = v[1]; v[1] = t; }
    if (v[1] > v[2]) { t = v[1]; v[1] = v[2]; v[2] = t; }
    if (v[0] > v[1]) { t = v[0]; v[0] = v[1]; v[1] = t; }
}

/* _least: least r in [0,1000) with pred(r), else 1000.  which: 0 defenderBreaks,
 * 1 shockAttacker < resolveAttacker, 2 La < lead.strength. */
static inline i64 least(const Spec *sp, const Force *f, int which) {
    i64 lo = 0, hi = 1000;
    Exchange e;
#ifdef BRANCHLESS
    /* variant (not the faithful default): fixed 10 masked halvings, selects instead of branches;
     * probes mid=lo once lo==hi but does not move -- same result as a plain bisection */
    for (int it = 0; it < 10; it++) {
        i64 mid = (lo + hi) >> 1;          /* lo+hi >= 0, so >>1 == floor division */
        resolve_exchange(sp, mid, f, &e);
        int p = which == 0 ? e.defenderBreaks
              : which == 1 ? (e.shockAttacker < f->resolveAttacker)
                           : (e.La < sp->lead.strength);
        i64 act = lo < hi;
        i64 m = -(i64)(act & p), m2 = -(i64)(act & !p);
        hi = (hi & ~m) | (mid & m);
        lo = (lo & ~m2) | ((mid + 1) & m2);
    }
    return lo;
#endif
    while (lo < hi) {
        i64 mid = fdiv(lo + hi, 2);
        resolve_exchange(sp, mid, f, &e);
        int p = which == 0 ? e.defenderBreaks
              : which == 1 ? (e.shockAttacker < f->resolveAttacker)
                           : (e.La < sp->lead.strength);
        if (p) hi = mid; else lo = mid + 1;
    }
    return lo;
}

static void preview(const Spec *sp, Preview *p) {
    Force f;
    force(sp, &f);
    Exchange e[3];
    resolve_exchange(sp, 0, &f, &e[0]);
    resolve_exchange(sp, 500, &f, &e[1]);
    resolve_exchange(sp, 999, &f, &e[2]);
    for (int k = 0; k < 3; k++) {
        p->Ld[k] = e[k].Ld; p->La[k] = e[k].La;
        p->shockDef[k] = e[k].shockDefender; p->shockAtt[k] = e[k].shockAttacker;
    }
    sort3(p->Ld); sort3(p->La); sort3(p->shockDef); sort3(p->shockAtt);
#ifdef EARLY
    /* early exit: a monotone predicate true at r=0 gives 0, false at r=999 gives 1000;
       otherwise bisect (this reuses nothing else and still returns the same answer) */
    i64 rDef = e[0].defenderBreaks ? 0 : !e[2].defenderBreaks ? 1000 : least(sp, &f, 0);
    i64 rAtt = (e[0].shockAttacker < f.resolveAttacker) ? 0 : !(e[2].shockAttacker < f.resolveAttacker) ? 1000 : least(sp, &f, 1);
    i64 rSurv = (e[0].La < sp->lead.strength) ? 0 : !(e[2].La < sp->lead.strength) ? 1000 : least(sp, &f, 2);
#else
    i64 rDef = least(sp, &f, 0), rAtt = least(sp, &f, 1), rSurv = least(sp, &f, 2);
#endif
    p->rDef = rDef; p->rAtt = rAtt; p->rSurv = rSurv;
    p->breakP = 1000 - rDef;
    p->falterP = imin(rAtt, rDef);
    p->destroyedP = rSurv;
    p->winP = imax(0, 1000 - imax(rDef, rSurv));
    p->A = f.A; p->D = f.D; p->volatility = f.volatility;
}

/* ---------------- corpus: deterministic splitmix64 generator ---------------- */
#define SEED 0x5EED0E1CULL
#define GOLDEN 0x9E3779B97F4A7C15ULL
typedef struct { u64 s; } Rng;
static inline u64 rng_next(Rng *g) {
    g->s += GOLDEN;
    u64 z = g->s;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}
static inline int32_t below(Rng *g, u64 n) { return (int32_t)(rng_next(g) % n); }
static const int32_t EDGE[7] = {-300, -100, 0, 0, 0, 100, 250};
static const int32_t DEXTRA[5] = {-200, 0, 0, 0, 150};

static void gen_unit(Rng *g, Unit *u) {
    u->role = below(g, 6);
    u->atk = 10 + below(g, 61);
    u->def = 10 + below(g, 51);
    u->tough = 40 + below(g, 111);
    u->strength = 1 + below(g, 100);
    u->disorder = below(g, 61);
    u->grade = below(g, 4);
    u->supply = below(g, 4);
    u->stance = below(g, 4);
    u->digIn = below(g, 5);
    u->works = below(g, 3);
    u->shaken = below(g, 4) == 0 ? 1 : 0;
    rng_next(g); rng_next(g);
}

static void gen_spec(u64 i, Spec *sp) {
    Rng g = {SEED + i * GOLDEN};
    memset(sp, 0, sizeof *sp);
    sp->terrain = below(&g, 7);
    sp->flankers = below(&g, 6);
    sp->stackExtra = below(&g, 5);
    sp->edge = EDGE[below(&g, 7)];
    sp->dextra = DEXTRA[below(&g, 5)];
    sp->inOwnCity = below(&g, 2);
    sp->encircled = below(&g, 5) == 0 ? 1 : 0;
    int32_t vfsel = below(&g, 4);
    int32_t vfval = 100 + below(&g, 601);
    sp->nsup = below(&g, 3);
    Unit u[4];
    for (int k = 0; k < 4; k++) gen_unit(&g, &u[k]);
    sp->lead = u[0]; sp->dfd = u[1]; sp->sup[0] = u[2]; sp->sup[1] = u[3];
    sp->volFloor = vfsel == 0 ? vfval : -1;
}

/* ---------------- driver ---------------- */
static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

typedef struct { i64 prim; u64 full; } Sums;

static Sums run_slice(const Spec *specs, size_t a, size_t b) {
    Sums s = {0, 0};
    Preview p;
    for (size_t i = a; i < b; i++) {
        preview(&specs[i], &p);
        s.prim += p.breakP + p.Ld[0] + p.Ld[1] + p.Ld[2];
        const i64 v[23] = {p.Ld[0], p.Ld[1], p.Ld[2], p.La[0], p.La[1], p.La[2],
                           p.shockDef[0], p.shockDef[1], p.shockDef[2], p.shockAtt[0], p.shockAtt[1], p.shockAtt[2],
                           p.rDef, p.rAtt, p.rSurv, p.breakP, p.falterP, p.destroyedP, p.winP,
                           p.A, p.D, p.volatility, 0};
        for (int k = 0; k < 22; k++) s.full += (u64)(k + 1) * 1000003ULL * (u64)v[k];
    }
    return s;
}

static Sums run_procs(const Spec *specs, size_t n, int procs) {
    if (procs <= 1) return run_slice(specs, 0, n);
    int fds[64][2];
    pid_t pids[64];
    for (int k = 0; k < procs; k++) {
        if (pipe(fds[k]) != 0) { perror("pipe"); exit(1); }
        size_t a = n * k / procs, b = n * (k + 1) / procs;
        pid_t pid = fork();
        if (pid < 0) { perror("fork"); exit(1); }
        if (pid == 0) {
            close(fds[k][0]);
            Sums s = run_slice(specs, a, b);
            if (write(fds[k][1], &s, sizeof s) != sizeof s) _exit(2);
            _exit(0);
        }
        pids[k] = pid;
        close(fds[k][1]);
    }
    Sums tot = {0, 0};
    for (int k = 0; k < procs; k++) {
        Sums s;
        if (read(fds[k][0], &s, sizeof s) != sizeof s) { fprintf(stderr, "short read\n"); exit(1); }
        close(fds[k][0]);
        waitpid(pids[k], NULL, 0);
        tot.prim += s.prim; tot.full += s.full;
    }
    return tot;
}

static int cmpd(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    size_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 20000;
    int reps = argc > 2 ? atoi(argv[2]) : 3;
    int procs = argc > 3 ? atoi(argv[3]) : 1;
    if (reps < 1) reps = 1;
    if (procs < 1) procs = 1;
    if (procs > 64) procs = 64;
    Spec *specs = malloc(n * sizeof *specs);
    if (!specs) { perror("malloc"); return 1; }
    double tg = now();
    for (size_t i = 0; i < n; i++) gen_spec(i, &specs[i]);
    tg = now() - tg;
    double rates[64], secs[64];
    Sums s = {0, 0};
    if (reps > 64) reps = 64;
    double cpubest = 1e30;
    for (int k = 0; k < reps; k++) {
        struct timespec c0, c1;
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
        double t0 = now();
        Sums sk = run_procs(specs, n, procs);
        double dt = now() - t0;
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
        double cdt = (c1.tv_sec - c0.tv_sec) + (c1.tv_nsec - c0.tv_nsec) * 1e-9;
        if (cdt < cpubest) cpubest = cdt;
        if (k > 0 && (sk.prim != s.prim || sk.full != s.full)) { fprintf(stderr, "non-deterministic!\n"); return 1; }
        s = sk;
        secs[k] = dt;
        rates[k] = n / dt;
    }
    qsort(rates, reps, sizeof rates[0], cmpd);
    qsort(secs, reps, sizeof secs[0], cmpd);
    printf("N=%zu checksum=%lld fullsum=%llu\n", n, (long long)s.prim, (unsigned long long)s.full);
    printf("C preview, %d proc(s): median %.0f previews/s (median %.3f s/rep, %d reps, min %.0f max %.0f; corpus gen %.3f s, %zu B/spec)\n",
           procs, rates[reps / 2], secs[reps / 2], reps, rates[0], rates[reps - 1], tg, sizeof(Spec));
    if (procs == 1) printf("  best per CPU-second (1 proc): %.0f previews/s\n", n / cpubest);
    free(specs);
    return 0;
}
