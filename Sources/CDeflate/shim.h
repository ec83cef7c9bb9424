#ifndef RELCTL_CDEFLATE_SHIM_H
#define RELCTL_CDEFLATE_SHIM_H

// libdeflate: whole-buffer DEFLATE/gzip compression, used for tar.gz chunks and zip entries compressed in parallel.
#include <libdeflate.h>
#include <stdlib.h>

// relctl's allocator policy (see MemoryPolicy in RelctlArtifacts): mallopt lives in
// <malloc.h>, which Swift's Glibc module does not export, and exists only in glibc.
#if defined(__GLIBC__)
#include <malloc.h>
static inline void relctl_fix_mmap_threshold(int bytes) { mallopt(M_MMAP_THRESHOLD, bytes); }
#else
static inline void relctl_fix_mmap_threshold(int bytes) { (void)bytes; }
#endif

#endif
