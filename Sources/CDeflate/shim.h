#ifndef RELCTL_CDEFLATE_SHIM_H
#define RELCTL_CDEFLATE_SHIM_H

// libdeflate: whole-buffer DEFLATE/gzip compression, used for tar.gz chunks compressed in parallel.
#include <libdeflate.h>

#endif
