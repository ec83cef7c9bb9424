// An LD_PRELOAD shim for the write-fault tests (WriteFaultCLITests): it makes the storage fail
// under one folder, the way a dying disk or a full network mount does, without a device or FUSE.
// Compiled with gcc by the test (`WriteFaultShim`), loaded into the built relctl only.
//
// Only calls on files under RELCTL_FAULT_UNDER (an absolute folder) are counted and failed, so
// relctl can still print its error on stderr and read its inputs. The settings, all optional:
//   RELCTL_FAULT_ERRNO        the error to fail with, as a number (default EIO)
//   RELCTL_FAULT_WRITE_BYTES  writes fail once this many bytes went to files under the folder
//                             (the write that crosses the mark writes what fits, the next fails)
//   RELCTL_FAULT_WRITE_CALLS  the write calls that succeed before every later one fails
//   RELCTL_FAULT_FSYNC        "1": fsync and fdatasync fail
//   RELCTL_FAULT_RENAME_CALLS the renames and links into the folder that succeed before every
//                             later one fails
//   RELCTL_FAULT_LOG          a file that gets one line per failed call (what the test checks
//                             the fault really landed)
// A child relctl starts (git, a build) inherits the shim and keeps counts of its own.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

static long long byte_budget = -1, write_budget = -1, rename_budget = -1;
static int fail_fsync = 0, fault_errno = EIO, configured = 0;
static char under[PATH_MAX];
static size_t under_length = 0;
static long long written_bytes = 0, write_calls = 0, rename_calls = 0;

static long long setting(const char *name) {
    const char *value = getenv(name);
    return value && *value ? atoll(value) : -1;
}

/// Read once, when the shim is loaded, before any thread of the program exists.
__attribute__((constructor)) static void configure(void) {
    if (configured) return;
    configured = 1;
    const char *folder = getenv("RELCTL_FAULT_UNDER");
    if (folder && *folder && strlen(folder) < sizeof under) {
        strcpy(under, folder);
        under_length = strlen(under);
        while (under_length > 1 && under[under_length - 1] == '/') under[--under_length] = 0;
    }
    byte_budget = setting("RELCTL_FAULT_WRITE_BYTES");
    write_budget = setting("RELCTL_FAULT_WRITE_CALLS");
    rename_budget = setting("RELCTL_FAULT_RENAME_CALLS");
    fail_fsync = setting("RELCTL_FAULT_FSYNC") == 1;
    long long code = setting("RELCTL_FAULT_ERRNO");
    if (code > 0) fault_errno = (int)code;
}

static int path_is_under(const char *path) {
    if (!under_length || !path) return 0;
    return strncmp(path, under, under_length) == 0 && (path[under_length] == '/' || path[under_length] == 0);
}

static int descriptor_is_under(int fd) {
    char link[64], target[PATH_MAX];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t length = readlink(link, target, sizeof target - 1);
    if (length <= 0) return 0;
    target[length] = 0;
    return path_is_under(target);
}

/// A relative path is taken from the working folder (what relctl passes is absolute).
static int name_is_under(int dirfd, const char *path) {
    if (!path) return 0;
    if (path[0] == '/') return path_is_under(path);
    char base[PATH_MAX], full[PATH_MAX];
    if (dirfd == AT_FDCWD) {
        if (!getcwd(base, sizeof base)) return 0;
    } else {
        char link[64];
        snprintf(link, sizeof link, "/proc/self/fd/%d", dirfd);
        ssize_t length = readlink(link, base, sizeof base - 1);
        if (length <= 0) return 0;
        base[length] = 0;
    }
    if ((size_t)snprintf(full, sizeof full, "%s/%s", base, path) >= sizeof full) return 0;
    return path_is_under(full);
}

static void note(const char *call, const char *what) {
    const char *log = getenv("RELCTL_FAULT_LOG");
    if (!log || !*log) return;
    ssize_t (*real_write)(int, const void *, size_t) = dlsym(RTLD_NEXT, "write");
    int fd = open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) return;
    char line[PATH_MAX + 64];
    int length = snprintf(line, sizeof line, "%d %s %s\n", (int)getpid(), call, what ? what : "");
    if (length > 0) real_write(fd, line, (size_t)length < sizeof line ? (size_t)length : sizeof line - 1);
    close(fd);
}

static void note_descriptor(const char *call, int fd) {
    char link[64], target[PATH_MAX];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t length = readlink(link, target, sizeof target - 1);
    target[length > 0 ? length : 0] = 0;
    note(call, target);
}

/// How many of `count` bytes a write to `fd` may write: `count` when it is not ours to fail,
/// fewer at the byte mark, -1 (errno set) once the budget is spent.
static ssize_t allowed(int fd, size_t count, const char *call) {
    configure();
    if (!under_length || !descriptor_is_under(fd)) return (ssize_t)count;
    if (write_budget >= 0 && __atomic_fetch_add(&write_calls, 1, __ATOMIC_SEQ_CST) >= write_budget) {
        note_descriptor(call, fd);
        errno = fault_errno;
        return -1;
    }
    if (byte_budget >= 0) {
        long long left = byte_budget - __atomic_load_n(&written_bytes, __ATOMIC_SEQ_CST);
        if (left <= 0) {
            note_descriptor(call, fd);
            errno = fault_errno;
            return -1;
        }
        if ((long long)count > left) count = (size_t)left;
    }
    return (ssize_t)count;
}

ssize_t write(int fd, const void *buffer, size_t count) {
    static ssize_t (*real)(int, const void *, size_t);
    if (!real) real = dlsym(RTLD_NEXT, "write");
    ssize_t limit = allowed(fd, count, "write");
    if (limit < 0) return -1;
    ssize_t result = real(fd, buffer, (size_t)limit);
    if (result > 0 && under_length && descriptor_is_under(fd)) __atomic_fetch_add(&written_bytes, result, __ATOMIC_SEQ_CST);
    return result;
}

ssize_t pwrite(int fd, const void *buffer, size_t count, off_t offset) {
    static ssize_t (*real)(int, const void *, size_t, off_t);
    if (!real) real = dlsym(RTLD_NEXT, "pwrite");
    ssize_t limit = allowed(fd, count, "pwrite");
    if (limit < 0) return -1;
    ssize_t result = real(fd, buffer, (size_t)limit, offset);
    if (result > 0 && under_length && descriptor_is_under(fd)) __atomic_fetch_add(&written_bytes, result, __ATOMIC_SEQ_CST);
    return result;
}

ssize_t writev(int fd, const struct iovec *vector, int count) {
    static ssize_t (*real)(int, const struct iovec *, int);
    if (!real) real = dlsym(RTLD_NEXT, "writev");
    size_t total = 0;
    for (int i = 0; i < count; i++) total += vector[i].iov_len;
    ssize_t limit = allowed(fd, total, "writev");
    if (limit < 0) return -1;
    if ((size_t)limit < total) {
        // Write only what the budget allows, through plain write.
        return write(fd, count > 0 ? vector[0].iov_base : NULL, (size_t)limit < vector[0].iov_len ? (size_t)limit : vector[0].iov_len);
    }
    ssize_t result = real(fd, vector, count);
    if (result > 0 && under_length && descriptor_is_under(fd)) __atomic_fetch_add(&written_bytes, result, __ATOMIC_SEQ_CST);
    return result;
}

static int sync_fails(int fd, const char *call) {
    configure();
    if (!fail_fsync || !under_length || !descriptor_is_under(fd)) return 0;
    note_descriptor(call, fd);
    errno = fault_errno;
    return 1;
}

int fsync(int fd) {
    static int (*real)(int);
    if (!real) real = dlsym(RTLD_NEXT, "fsync");
    return sync_fails(fd, "fsync") ? -1 : real(fd);
}

int fdatasync(int fd) {
    static int (*real)(int);
    if (!real) real = dlsym(RTLD_NEXT, "fdatasync");
    return sync_fails(fd, "fdatasync") ? -1 : real(fd);
}

/// Whether a rename or link to `destination` is the one to fail.
static int placement_fails(int dirfd, const char *destination, const char *call) {
    configure();
    if (rename_budget < 0 || !name_is_under(dirfd, destination)) return 0;
    if (__atomic_fetch_add(&rename_calls, 1, __ATOMIC_SEQ_CST) >= rename_budget) {
        note(call, destination);
        errno = fault_errno;
        return 1;
    }
    return 0;
}

int rename(const char *old, const char *new) {
    static int (*real)(const char *, const char *);
    if (!real) real = dlsym(RTLD_NEXT, "rename");
    return placement_fails(AT_FDCWD, new, "rename") ? -1 : real(old, new);
}

int renameat(int olddirfd, const char *old, int newdirfd, const char *new) {
    static int (*real)(int, const char *, int, const char *);
    if (!real) real = dlsym(RTLD_NEXT, "renameat");
    return placement_fails(newdirfd, new, "renameat") ? -1 : real(olddirfd, old, newdirfd, new);
}

int renameat2(int olddirfd, const char *old, int newdirfd, const char *new, unsigned int flags) {
    static int (*real)(int, const char *, int, const char *, unsigned int);
    if (!real) real = dlsym(RTLD_NEXT, "renameat2");
    return placement_fails(newdirfd, new, "renameat2") ? -1 : real(olddirfd, old, newdirfd, new, flags);
}

int link(const char *old, const char *new) {
    static int (*real)(const char *, const char *);
    if (!real) real = dlsym(RTLD_NEXT, "link");
    return placement_fails(AT_FDCWD, new, "link") ? -1 : real(old, new);
}

int linkat(int olddirfd, const char *old, int newdirfd, const char *new, int flags) {
    static int (*real)(int, const char *, int, const char *, int);
    if (!real) real = dlsym(RTLD_NEXT, "linkat");
    return placement_fails(newdirfd, new, "linkat") ? -1 : real(olddirfd, old, newdirfd, new, flags);
}
