#include <stdio.h>
#include "util.h"

/* Print a greeting. */
static const char *greeting = "hello /* world */";

int add(int a, int b) {
    // add two numbers
    return a + b;
}

int main(void) {
    printf("%s %d\n", greeting, add(1, 2));
    return 0;
}
