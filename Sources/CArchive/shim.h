#ifndef RELCTL_CARCHIVE_SHIM_H
#define RELCTL_CARCHIVE_SHIM_H

#include <archive.h>
#include <archive_entry.h>
#include <sys/stat.h>

// Swift cannot import the AE_IF* macros (they expand to casts), so restate them as constants.
static const unsigned int RELCTL_AE_IFREG = 0100000;
static const unsigned int RELCTL_AE_IFDIR = 0040000;
static const unsigned int RELCTL_AE_IFLNK = 0120000;

#endif
