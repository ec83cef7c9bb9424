import RelctlCommands

#if RELCTL_STATIC_CURL
import Glibc

// The release build (scripts/build-release) links its own libcurl with OpenSSL
// (scripts/build-static-curl), whose CA store is OpenSSL's default: SSL_CERT_FILE or
// SSL_CERT_DIR, else /usr/lib/ssl, which only Debian and Ubuntu have. Elsewhere (Fedora, RHEL,
// openSUSE, Alpine) it names the distribution's bundle, the first of these that can be read.
if getenv("SSL_CERT_FILE") == nil && getenv("SSL_CERT_DIR") == nil {
    let bundles = [
        "/etc/ssl/certs/ca-certificates.crt",  // Debian, Ubuntu, Arch, Alpine
        "/etc/pki/tls/certs/ca-bundle.crt",  // Fedora, RHEL
        "/etc/ssl/ca-bundle.pem",  // openSUSE
        "/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem",  // RHEL, CentOS
        "/etc/ssl/cert.pem",  // Alpine
    ]
    if let bundle = bundles.first(where: { access($0, R_OK) == 0 }) {
        setenv("SSL_CERT_FILE", bundle, 0)
    }
}
#endif

// Everything but this call lives in RelctlCommands, so a program that registers its own
// extensions builds the same command line (Examples/relctl-gradle).
await RelctlCLI.main()
