#include <stddef.h>
struct ring { unsigned char *buf; size_t cap, head, len; };
int ring_init(struct ring *r, size_t cap);
int ring_push(struct ring *r, unsigned char c);
int ring_pop(struct ring *r, unsigned char *c);
int ring_resize(struct ring *r, size_t cap);
