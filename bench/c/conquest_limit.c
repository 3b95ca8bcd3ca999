/* Copied unchanged from the project's speed yardsticks (perf/conquest_limit.c, outside the repository);
 * compiled by the benchmarks when gcc is present. Not project code; never shipped. */
/* conquest_limit.c -- speed limit for simulating whole conquest seasons (no fan pools, no rebellions).
 *
 * Same rules structure as the exact season engine with an empty ledger
 * (shared/specs/conquest.md §1-§5), but in doubles with a splitmix64 PRNG: a speed limit, not a
 * bit-exact port.  Per battle n (1-based, global):
 *   attacker  uniform among standing factions that border an enemy           (§3.1)
 *   defender  uniform among factions bordering the attacker (bit order = ascending code)
 *   border    uniform among the shared borders; only its kind matters, so it is drawn as
 *             "sea or remote" with probability sea_borders/shared_borders (same distribution)
 *   strength  pop_power(N) x W x sp(1.10, own category) x home(1.12, defender) x sea(0.8, attacker)
 *             x ctr(1.08) x (1 + morale/10000);  N = home pop + integrating captured pop,
 *             f = min(1, (8+3k)/32), k = n - captured_at - 1                   (§1.2)
 *   rounds    p_c = a/(a+d) -> Q_c = floor(p_c 2^32) clamped to [LO, HI]; attacker wins round c
 *             iff (x >> 32) < Q_c; five draws always; first to three           (§1.2, §2)
 *   upset     winner's Poisson-binomial battle chance < 0.35                   (§3.5)
 *   conquest  loser's holdings all move to the winner, captured_at = n         (§5)
 *   morale    every standing faction x0.82 after each battle, winner +200 (+600 upset), cap 1200
 * 8 PRNG draws per battle as in §2 (+0 attacker, +1 defender, +2 border, +3..+7 rounds).
 *
 * Incremental bookkeeping (nothing is rescanned per battle):
 *   cnt[X*R+Y]  packed (shared borders) | (sea+remote shared borders) << 9 between factions X, Y;
 *               nonzero iff X, Y are alive neighbours, so the matrix is all zero at season end and
 *               a season reset rewrites only the 2*B initial entries.
 *   nb[X]       neighbour-faction bitset (3 x 64 bits); a merge touches only the loser's neighbours.
 *   fr[]        frontier set (standing factions with an enemy neighbour), O(1) swap-remove.
 *   full[X]     fully integrated population (home included); raw[X] total held population.
 *   ring[16]    the capture batch of each of the last 8 battles (owner, population): every battle
 *               captures exactly one batch (all the loser's holdings), which integrates as one.
 *               N_X = full[X] + sum over live ring batches owned by X of pop * f(k).
 *               A batch is folded into full[] 9 battles after its capture, or dies when its
 *               owner is conquered (it is then part of the new batch).
 *   morale      lazy: value and the battle it was set at; read as m * 0.82^(battles since).
 * Approximations vs the exact engine (all tiny): doubles, no per-region floor in f, no floor in decay.
 *
 * Build: gcc -O2 -march=native -o conquest_limit conquest_limit.c -lm
 *        (check build: add -DCHECK: keeps owner/captured_at per region and, after every battle,
 *         recomputes cnt, nb, frontier and every N from scratch and compares; slow)
 * Run:   ./conquest_limit MAPFILE SEASONS [REPS=3] [PROCS=1] [SEED=1]
 *   MAPFILE: see README.md.  Season s uses splitmix64 state mix(SEED + s).
 *   Prints the median seasons/s over REPS timed runs (PROCS>1: fork PROCS children over
 *   contiguous halves of the seasons, wall time measured in the parent), and the statistics that
 *   an exact engine can print for comparison.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#ifdef __BMI2__
#include <immintrin.h>
#endif

typedef uint64_t u64;
typedef int64_t i64;
#define MAXR 192
#define NW 3

/* ------------------------------------------------------------------ map */
static int R, B;
static char code[MAXR][16];
static i64 popi[MAXR];
static double Wt[MAXR];          /* 30P+25S+20M+15R+10U */
static int spc[MAXR];            /* special 0..4 = P S M R U */
static int bA[2048], bB[2048], bK[2048];
static u64 nb0[MAXR][NW];        /* initial neighbour bitsets */

static void load_map(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) { perror(path); exit(1); }
    if (fscanf(f, "%d %d", &R, &B) != 2 || R < 2 || R > MAXR || B < 1 || B > 2048) { fprintf(stderr, "bad header\n"); exit(1); }
    static const int w[5] = {30, 25, 20, 15, 10};
    for (int i = 0; i < R; i++) {
        int rt[5]; char sp[4];
        if (fscanf(f, "%15s %ld %d %d %d %d %d %3s", code[i], &popi[i], &rt[0], &rt[1], &rt[2], &rt[3], &rt[4], sp) != 8) { fprintf(stderr, "bad region %d\n", i); exit(1); }
        Wt[i] = 0;
        for (int c = 0; c < 5; c++) Wt[i] += w[c] * rt[c];
        spc[i] = (int)(strchr("PSMRU", sp[0]) - "PSMRU");
    }
    for (int j = 0; j < B; j++) {
        if (fscanf(f, "%d %d %d", &bA[j], &bB[j], &bK[j]) != 3) { fprintf(stderr, "bad border %d\n", j); exit(1); }
        nb0[bA[j]][bB[j] >> 6] |= 1ULL << (bB[j] & 63);
        nb0[bB[j]][bA[j] >> 6] |= 1ULL << (bA[j] & 63);
    }
    fclose(f);
}

/* ------------------------------------------------------------------ PRNG */
static inline u64 splitmix64(u64 *s) {
    u64 z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}
static inline u64 mix(u64 x) { u64 s = x; return splitmix64(&s); }
static inline unsigned pick(u64 x, unsigned L) { return (unsigned)(((unsigned __int128)x * L) >> 64); }

static inline int select_bit(u64 w, unsigned k) {          /* index of the k-th (0-based) set bit */
#ifdef __BMI2__
    return __builtin_ctzll(_pdep_u64(1ULL << k, w));
#else
    while (k--) w &= w - 1;
    return __builtin_ctzll(w);
#endif
}

/* ------------------------------------------------------------------ season state */
static uint16_t cnt[MAXR * MAXR];
static u64 nb[MAXR][NW];
static int fr[MAXR], fpos[MAXR], nfr;
static i64 full[MAXR], raw[MAXR];
static double mor[MAXR]; static int mstamp[MAXR];
static struct { int owner; i64 pop; } ring[16];
static double ramp[8], pow082[1024];
static const u64 LO = (189ULL << 32) / 1000, HI = (1ULL << 32) - (189ULL << 32) / 1000;
#ifdef CHECK
static int owner[MAXR], capat[MAXR];
#endif

typedef struct { double battles, attw, upset, sea, pa, ctr, seasons; u64 chk; } Stats;

static inline void fr_remove(int X) {
    int i = fpos[X], Y = fr[--nfr];
    fr[i] = Y; fpos[Y] = i; fpos[X] = -1;
}
static inline int nb_empty(int X) { u64 z = 0; for (int w = 0; w < NW; w++) z |= nb[X][w]; return z == 0; }

static void season_reset(void) {
    for (int j = 0; j < B; j++) {                       /* cnt is all zero here (invariant) */
        uint16_t v = (uint16_t)(1 | ((bK[j] != 0) << 9));
        cnt[bA[j] * R + bB[j]] += v;
        cnt[bB[j] * R + bA[j]] += v;
    }
    memcpy(nb, nb0, sizeof nb);
    for (int X = 0; X < R; X++) {
        fr[X] = X; fpos[X] = X;
        full[X] = raw[X] = popi[X];
        mor[X] = 0; mstamp[X] = 0;
#ifdef CHECK
        owner[X] = X; capat[X] = 0;
#endif
    }
    nfr = R;
    for (int i = 0; i < 16; i++) ring[i].owner = -1;
}

#ifdef CHECK
static void check_state(int n) {          /* after battle n: recompute everything from owner/capat */
    static uint16_t c2[MAXR * MAXR];
    memset(c2, 0, sizeof(uint16_t) * R * R);
    for (int j = 0; j < B; j++) {
        int a = owner[bA[j]], b = owner[bB[j]];
        if (a == b) continue;
        uint16_t v = (uint16_t)(1 | ((bK[j] != 0) << 9));
        c2[a * R + b] += v; c2[b * R + a] += v;
    }
    for (int i = 0; i < R * R; i++) if (c2[i] != cnt[i]) { fprintf(stderr, "cnt mismatch battle %d at %d,%d: %u vs %u\n", n, i / R, i % R, c2[i], cnt[i]); exit(2); }
    for (int X = 0; X < R; X++) {
        u64 b2[NW] = {0};
        for (int Y = 0; Y < R; Y++) if (c2[X * R + Y]) b2[Y >> 6] |= 1ULL << (Y & 63);
        for (int w = 0; w < NW; w++) if (b2[w] != nb[X][w]) { fprintf(stderr, "nb mismatch battle %d faction %d\n", n, X); exit(2); }
        int standing = owner[X] == X, front = standing && !nb_empty(X);
        if (front != (fpos[X] >= 0)) { fprintf(stderr, "frontier mismatch battle %d faction %d\n", n, X); exit(2); }
        if (standing) {                    /* N at the next battle b = n+1, spec formula without floor */
            double N = 0; i64 rw = 0; int b = n + 1;
            for (int t = 0; t < R; t++) if (owner[t] == X) {
                rw += popi[t];
                if (t == X) N += popi[t];
                else { int k = b - capat[t] - 1, num = 8 + 3 * k; N += num >= 32 ? popi[t] : popi[t] * num / 32.0; }
            }
            double N2 = (double)full[X];
            for (int j = 1; j <= 8 && j < b; j++) if (ring[(b - j) & 15].owner == X) N2 += ring[(b - j) & 15].pop * ramp[j - 1];
            if (b - 9 >= 1 && ring[(b - 9) & 15].owner == X) N2 += ring[(b - 9) & 15].pop;   /* not yet folded */
            if (rw != raw[X] || fabs(N - N2) > 1e-6 * N) { fprintf(stderr, "N mismatch battle %d faction %d: %.1f vs %.1f raw %ld vs %ld\n", n, X, N, N2, rw, raw[X]); exit(2); }
        }
    }
    if (nfr == 0) for (int i = 0; i < R * R; i++) if (cnt[i]) { fprintf(stderr, "cnt not zero at end\n"); exit(2); }
}
#endif

static void run_season(u64 seed, Stats *st) {
    u64 s = seed;
    season_reset();
    int n = 0;
    while (nfr > 0) {
        n++;
        u64 x[8];
        for (int i = 0; i < 8; i++) x[i] = splitmix64(&s);
        if (n > 9) {                                       /* batch n-9 is now fully integrated */
            int o = ring[(n - 9) & 15].owner;
            if (o >= 0) full[o] += ring[(n - 9) & 15].pop;
        }
        /* attacker, defender, border */
        int A = fr[pick(x[0], nfr)];
        unsigned pc[NW], tot = 0;
        for (int w = 0; w < NW; w++) { pc[w] = __builtin_popcountll(nb[A][w]); tot += pc[w]; }
        unsigned k = pick(x[1], tot);
        int w = 0;
        while (k >= pc[w]) k -= pc[w++];
        int D = w * 64 + select_bit(nb[A][w], k);
        unsigned c = cnt[A * R + D];
        int sea = pick(x[2], c & 511) < (c >> 9);
        /* controlled population with integration */
        double NA = (double)full[A], ND = (double)full[D];
        for (int j = 1; j <= 8; j++) {
            int o = ring[(n - j) & 15].owner;
            if (o == A) NA += ring[(n - j) & 15].pop * ramp[j - 1];
            else if (o == D) ND += ring[(n - j) & 15].pop * ramp[j - 1];
        }
        int sA = spc[A], sD = spc[D];
        int ctrA = (sA + 1) % 5 == sD, ctrD = (sD + 1) % 5 == sA;
        double mA = mor[A] * pow082[n - 1 - mstamp[A]], mD = mor[D] * pow082[n - 1 - mstamp[D]];
        double fA = pow(NA, 0.35) * Wt[A] * (sea ? 0.8 : 1.0) * (ctrA ? 1.08 : 1.0) * (1.0 + mA * 1e-4);
        double fD = pow(ND, 0.35) * Wt[D] * 1.12 * (ctrD ? 1.08 : 1.0) * (1.0 + mD * 1e-4);
        /* five rounds */
        double d0 = 1, d1 = 0, d2 = 0, d3 = 0, d4 = 0, d5 = 0;  /* Poisson-binomial */
        int wins = 0;
        for (int cat = 0; cat < 5; cat++) {
            double a = cat == sA ? fA * 1.1 : fA, d = cat == sD ? fD * 1.1 : fD;
            u64 Q = (u64)(a / (a + d) * 4294967296.0);
            Q = Q < LO ? LO : Q > HI ? HI : Q;
            wins += (x[3 + cat] >> 32) < Q;
            double p = Q * (1.0 / 4294967296.0), q = 1 - p;
            d5 = d5 * q + d4 * p; d4 = d4 * q + d3 * p; d3 = d3 * q + d2 * p;
            d2 = d2 * q + d1 * p; d1 = d1 * q + d0 * p; d0 *= q;
        }
        double PA = d3 + d4 + d5;
        int Awins = wins >= 3, W = Awins ? A : D, L = Awins ? D : A;
        int upset = (Awins ? PA : 1 - PA) < 0.35;
        /* conquest: L's holdings (all of raw[L]) become batch n of W */
        for (int j = 1; j <= 8; j++) if (ring[(n - j) & 15].owner == L) ring[(n - j) & 15].owner = -1;
        ring[n & 15].owner = W; ring[n & 15].pop = raw[L];
        raw[W] += raw[L]; raw[L] = 0; full[L] = 0;
        uint16_t *rW = cnt + W * R, *rL = cnt + L * R;
        for (int ww = 0; ww < NW; ww++) {
            u64 bits = nb[L][ww];
            while (bits) {
                int Y = ww * 64 + __builtin_ctzll(bits); bits &= bits - 1;
                if (Y == W) continue;
                rW[Y] += rL[Y]; cnt[Y * R + W] = rW[Y];
                rL[Y] = 0; cnt[Y * R + L] = 0;
                nb[Y][L >> 6] &= ~(1ULL << (L & 63));
                nb[Y][W >> 6] |= 1ULL << (W & 63);
                nb[W][Y >> 6] |= 1ULL << (Y & 63);
            }
            nb[L][ww] = 0;
        }
        rW[L] = 0; rL[W] = 0;
        nb[W][L >> 6] &= ~(1ULL << (L & 63));
        fr_remove(L);
        if (nb_empty(W)) fr_remove(W);
        /* morale: decay everyone (lazily), then the winner's bonus, cap */
        double mW = mor[W] * pow082[n - mstamp[W]] + (upset ? 600 : 200);
        mor[W] = mW > 1200 ? 1200 : mW; mstamp[W] = n;
        /* stats */
        st->attw += Awins; st->upset += upset; st->sea += sea; st->pa += PA; st->ctr += ctrA | ctrD;
        st->chk = st->chk * 31 + (u64)W;
#ifdef CHECK
        for (int t = 0; t < R; t++) if (owner[t] == L) { owner[t] = W; capat[t] = n; }
        check_state(n);
#endif
    }
    st->battles += n; st->seasons += 1;
}

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
static void run_range(u64 seed, long lo, long hi, Stats *st) { for (long i = lo; i < hi; i++) run_season(mix(seed + (u64)i), st); }
static int cmpd(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: %s MAPFILE SEASONS [REPS=3] [PROCS=1] [SEED=1]\n", argv[0]); return 1; }
    load_map(argv[1]);
    long S = atol(argv[2]);
    int reps = argc > 3 ? atoi(argv[3]) : 3, procs = argc > 4 ? atoi(argv[4]) : 1;
    u64 seed = argc > 5 ? strtoull(argv[5], 0, 0) : 1;
    for (int k = 0; k < 8; k++) ramp[k] = (8 + 3 * k) / 32.0;
    pow082[0] = 1; for (int k = 1; k < 1024; k++) pow082[k] = pow082[k - 1] * 0.82;
    if (R > 1000) return 1;
    double t[64]; Stats st = {0};
    if (reps > 64) reps = 64;
    for (int r = 0; r < reps; r++) {
        Stats s1 = {0};
        double t0 = now();
        if (procs <= 1) run_range(seed, 0, S, &s1);
        else {
            int fds[64][2];
            for (int p = 0; p < procs; p++) {
                if (pipe(fds[p])) { perror("pipe"); return 1; }
                pid_t pid = fork();
                if (pid == 0) {
                    Stats sc = {0};
                    run_range(seed, S * p / procs, S * (p + 1) / procs, &sc);
                    if (write(fds[p][1], &sc, sizeof sc) != sizeof sc) _exit(1);
                    _exit(0);
                }
                close(fds[p][1]);
            }
            for (int p = 0; p < procs; p++) {
                Stats sc;
                if (read(fds[p][0], &sc, sizeof sc) != sizeof sc) { fprintf(stderr, "child failed\n"); return 1; }
                close(fds[p][0]);
                s1.battles += sc.battles; s1.attw += sc.attw; s1.upset += sc.upset; s1.sea += sc.sea;
                s1.pa += sc.pa; s1.ctr += sc.ctr; s1.seasons += sc.seasons; s1.chk ^= sc.chk;
            }
            while (wait(NULL) > 0) {}
        }
        t[r] = now() - t0;
        if (r == 0) st = s1;
    }
    double tt[64]; memcpy(tt, t, sizeof(double) * reps);
    qsort(tt, reps, sizeof(double), cmpd);
    double med = tt[reps / 2];
    printf("conquest_limit: %ld seasons x %d reps, %d proc(s): median %.4f s -> %.0f seasons/s "
           "(%.2f us/season, %.1f ns/battle, %.2f M battles/s); reps:", S, reps, procs, med, S / med,
           med / S * 1e6, med / (st.battles) * 1e9, st.battles / med / 1e6);
    for (int r = 0; r < reps; r++) printf(" %.0f", S / t[r]);
    printf("\n");
    double nbt = st.battles;
    printf("battles/season %.3f  attacker_win %.4f  upset %.4f  sea_border %.4f  mean_PA %.4f  counter %.4f  "
           "(battles %.0f, checksum %016llx)\n", nbt / st.seasons, st.attw / nbt, st.upset / nbt, st.sea / nbt,
           st.pa / nbt, st.ctr / nbt, nbt, (unsigned long long)st.chk);
    return 0;
}
