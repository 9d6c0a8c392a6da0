/* A small spooler: forks workers that read a config, write spool files and exit; run under strace -f. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static int worker(int n, const char *dir) {
    char path[256], buf[64];
    int cfg = open(n == 2 ? "/etc/spool-worker.conf" : "/etc/hostname", O_RDONLY);
    if (cfg < 0) { fprintf(stderr, "worker %d: config: %s\n", n, strerror(errno)); return 2; }
    close(cfg);
    for (int i = 0; i < 30; i++) {
        snprintf(path, sizeof path, "%s/w%d-%03d.job", dir, n, i);
        int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int len = snprintf(buf, sizeof buf, "job %d of worker %d\n", i, n);
        if (write(fd, buf, (size_t)len) != len) return 3;
        close(fd);
        if (n == 1 && i == 17) raise(SIGSEGV);       /* worker 1 crashes halfway */
    }
    return 0;
}

int main(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : "spool";
    if (mkdir(dir, 0755) < 0 && errno != EEXIST) { perror("mkdir"); return 1; }
    if (access("/var/lock/spool.lock", F_OK) < 0) fprintf(stderr, "no lock file, continuing\n");
    pid_t pids[3];
    for (int n = 0; n < 3; n++) {
        pids[n] = fork();
        if (pids[n] == 0) _exit(worker(n, dir));
    }
    int failed = 0;
    for (int n = 0; n < 3; n++) {
        int st;
        waitpid(pids[n], &st, 0);
        if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) failed++;
    }
    printf("spooled with %d failed workers\n", failed);
    return failed ? 1 : 0;
}
