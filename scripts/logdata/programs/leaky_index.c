/* A small record indexer with real memory bugs, run under valgrind by scripts/logdata/valgrind.sh. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct rec { int id; char *name; int *scores; };

static char *dup_name(int id) {
    char *s = malloc(16);
    snprintf(s, 16, "rec-%04d", id);
    return s;
}

static int *make_scores(int n) {
    int *p = malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n - 1; i++) p[i] = i * 3;   /* last one left uninitialised */
    return p;
}

static int total(const int *p, int n) {
    int t = 0;
    for (int i = 0; i <= n; i++) t += p[i];          /* reads one past the end */
    return t;
}

static struct rec *load(int id) {
    struct rec *r = malloc(sizeof *r);
    r->id = id;
    r->name = dup_name(id);
    r->scores = make_scores(4 + id % 3);
    return r;
}

static void release(struct rec *r, int keep_name) {
    if (!keep_name) free(r->name);                   /* names of every 7th record leak */
    free(r->scores);
    free(r);
}

static int depth_sum(struct rec *r, int depth) {
    if (depth == 0) return total(r->scores, 4 + r->id % 3);
    return depth_sum(r, depth - 1) + 1;
}

int main(void) {
    long grand = 0;
    for (int id = 1; id <= 240; id++) {
        struct rec *r = load(id);
        int t = depth_sum(r, id % 4);
        if (t > 30) printf("record %d %s total=%d flagged\n", id, r->name, t);
        else printf("record %d %s total=%d\n", id, r->name, t);
        grand += t;
        if (id % 50 == 0) {
            struct rec *lost = load(id + 1000);      /* whole record lost every 50 */
            (void)lost;
        } else {
            release(r, id % 7 == 0);
        }
    }
    char *buf = malloc(8);
    strcpy(buf, "summary");
    free(buf);
    printf("done: %ld (%s)\n", grand, buf[0] ? "ok" : "empty");   /* use after free */
    return 0;
}
