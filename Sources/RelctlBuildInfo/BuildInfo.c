#include "RelctlBuildInfo.h"

// `make build` writes build_info_generated.h (git-ignored) before compiling; a plain
// `swift build` has none and reports empty values. Keeping the values in this one C file means
// a new commit recompiles one file instead of everything.
#if __has_include("build_info_generated.h")
#include "build_info_generated.h"
#endif

#ifndef RELCTL_COMMIT
#define RELCTL_COMMIT ""
#endif
#ifndef RELCTL_BUILD_DATE
#define RELCTL_BUILD_DATE ""
#endif

const char *relctl_build_commit(void) { return RELCTL_COMMIT; }
const char *relctl_build_date(void) { return RELCTL_BUILD_DATE; }
