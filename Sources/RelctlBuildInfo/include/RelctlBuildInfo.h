#ifndef RELCTL_BUILD_INFO_H
#define RELCTL_BUILD_INFO_H

/// The git commit relctl was built from, or "" when the build did not record it.
const char *relctl_build_commit(void);
/// The build date (UTC, ISO 8601), or "" when the build did not record it.
const char *relctl_build_date(void);

#endif
