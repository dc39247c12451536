// Makes a SIGPIPE in the test process say where it came from. Nothing in this package may raise one (an app's
// process would die of it without a word), so the tests keep it fatal; this handler first names the thread and
// its stack on stderr (the test binary's own frames through addr2line), then aborts.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <execinfo.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

enum { MAX_FRAMES = 48 };

static void say(const char *text) {
    ssize_t ignored = write(STDERR_FILENO, text, strlen(text));
    (void)ignored;
}

// Swift's crash backtracer cannot unwind through a signal handler's frame, and backtrace_symbols_fd names only
// exported symbols, so the test binary's frames are offsets: addr2line turns them into function names.
static void name_own_frames(void **frames, int count) {
    Dl_info self;
    char exe[512];
    ssize_t length = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (length <= 0 || !dladdr((void *)name_own_frames, &self)) return;
    exe[length] = 0;
    static char offsets[MAX_FRAMES][24];
    char *arguments[MAX_FRAMES + 7] = {"addr2line", "-f", "-i", "-p", "-e", exe};
    int argument_count = 6;
    for (int i = 0; i < count; i++) {
        Dl_info info;
        if (!dladdr(frames[i], &info) || info.dli_fbase != self.dli_fbase) continue;
        // A return address points after its call: step back into it.
        snprintf(offsets[i], sizeof offsets[i], "0x%lx", (unsigned long)((char *)frames[i] - (char *)info.dli_fbase - 1));
        arguments[argument_count++] = offsets[i];
    }
    if (argument_count == 6) return;
    say("the test binary's frames:\n");
    // A raw fork: the sanitizers' fork interceptors may take locks this thread already holds.
    pid_t child = (pid_t)syscall(SYS_fork);
    if (child == 0) {
        dup2(STDERR_FILENO, STDOUT_FILENO);
        execvp("addr2line", arguments);
        _exit(127);
    }
    if (child > 0) {
        int status;
        waitpid(child, &status, 0);
    }
}

static void report(int signal_number) {
    (void)signal_number;
    say("\nSIGPIPE raised in the test process (a write to a closed pipe or socket without MSG_NOSIGNAL), thread ");
    char name[32] = {0};
    int fd = open("/proc/thread-self/comm", O_RDONLY);
    if (fd >= 0) {
        if (read(fd, name, sizeof name - 1) > 0) say(name);
        close(fd);
    }
    say("stack:\n");
    void *frames[MAX_FRAMES];
    int count = backtrace(frames, MAX_FRAMES);
    backtrace_symbols_fd(frames, count, STDERR_FILENO);
    name_own_frames(frames, count);
    abort();
}

__attribute__((constructor)) static void install(void) {
    // The first backtrace() loads the unwinder, which must not happen inside the handler.
    void *frame[1];
    (void)backtrace(frame, 1);
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = report;
    sigemptyset(&action.sa_mask);
    sigaction(SIGPIPE, &action, NULL);
}
