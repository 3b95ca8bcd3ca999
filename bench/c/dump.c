/* Copied unchanged from the project's speed yardsticks (perf/dump.c, outside the repository);
 * compiled by the benchmarks when gcc is present. Not project code; never shipped. */
/* dump.c: writes the clash_limit corpus (Spec structs, 57 int32 each) and the C previews
 * (22 int64 each) so the Python side can compare element by element. */
#define main clash_limit_main
#include "clash_limit.c"
#undef main
int main(int argc, char **argv) {
    size_t n = strtoull(argv[1], NULL, 10);
    FILE *fs = fopen(argv[2], "wb"), *fp = argc > 3 ? fopen(argv[3], "wb") : NULL;
    Spec sp; Preview p;
    for (size_t i = 0; i < n; i++) {
        gen_spec(i, &sp);
        fwrite(&sp, sizeof sp, 1, fs);
        if (fp) {
            preview(&sp, &p);
            const i64 v[22] = {p.Ld[0], p.Ld[1], p.Ld[2], p.La[0], p.La[1], p.La[2],
                               p.shockDef[0], p.shockDef[1], p.shockDef[2], p.shockAtt[0], p.shockAtt[1], p.shockAtt[2],
                               p.rDef, p.rAtt, p.rSurv, p.breakP, p.falterP, p.destroyedP, p.winP,
                               p.A, p.D, p.volatility};
            fwrite(v, sizeof v, 1, fp);
        }
    }
    fclose(fs); if (fp) fclose(fp);
    return 0;
}
