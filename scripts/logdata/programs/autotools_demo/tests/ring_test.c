#include <stdio.h>
#include <string.h>
#include "../ringbuf.h"
int main(int argc, char **argv) {
    struct ring r; unsigned char c; int i, n = 0; const char *t = argc > 1 ? argv[1] : "push";
    ring_init(&r, 8);
    if (!strcmp(t, "push")) { for (i = 0; i < 8; i++) if (ring_push(&r, (unsigned char)i)) return 1; return 0; }
    if (!strcmp(t, "pop")) { ring_push(&r, 7); return ring_pop(&r, &c) || c != 7; }
    if (!strcmp(t, "wrap")) { for (i = 0; i < 20; i++) { ring_push(&r, (unsigned char)i); ring_pop(&r, &c); if (c != i) return 1; } return 0; }
    if (!strcmp(t, "full")) { for (i = 0; i < 8; i++) ring_push(&r, 1); return ring_push(&r, 1) != -1; }
    if (!strcmp(t, "empty")) return ring_pop(&r, &c) != -1;
    if (!strcmp(t, "resize")) {
        for (i = 0; i < 6; i++) ring_push(&r, (unsigned char)i);
        for (i = 0; i < 4; i++) ring_pop(&r, &c);
        for (i = 6; i < 10; i++) ring_push(&r, (unsigned char)i);
        ring_resize(&r, 16);
        for (i = 4; i < 10; i++) { ring_pop(&r, &c); if (c != i) { fprintf(stderr, "resize: expected %d, got %d at slot %d\n", i, c, i - 4); return 1; } }
        return 0;
    }
    if (!strcmp(t, "peek")) { puts("peek: not implemented"); return 77; }
    if (!strcmp(t, "drain")) { for (i = 0; i < 5; i++) ring_push(&r, 1); while (!ring_pop(&r, &c)) n++; return n != 5; }
    if (!strcmp(t, "large")) { struct ring big; return ring_init(&big, (size_t)1 << 20); }
    if (!strcmp(t, "stress")) { for (i = 0; i < 100000; i++) { ring_push(&r, 1); ring_pop(&r, &c); } return 0; }
    return 2;
}
