#ifndef RELCTL_CSODIUM_SHIM_H
#define RELCTL_CSODIUM_SHIM_H
// libsodium, the library minisign itself is built on: BLAKE2b (prehashing and the secret key's
// checksum), Ed25519 and scrypt (encrypted minisign secret keys).
#include <sodium.h>
#endif
