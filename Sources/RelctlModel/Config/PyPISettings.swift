import Foundation

/// `[pypi]`: one wheel per target holding the binaries (`{name}-{version}-py3-none-{platform}.whl`),
/// published to PyPI's upload API (or the index `repository-url` names) with `PYPI_TOKEN`.
package struct PyPISettings: Sendable, Equatable {
    /// PyPI's upload endpoint, the legacy API twine uses.
    package static let defaultRepositoryURL = "https://upload.pypi.org/legacy/"

    /// The distribution name as written (`velostream`); wheels use its normalised spelling.
    package var package: String
    /// Where `publish` uploads (the legacy upload API: multipart POST, `:action=file_upload`).
    package var repositoryURL: String = PyPISettings.defaultRepositoryURL
    /// The simple index (PEP 503) asked what is already uploaded; nil: PyPI's for PyPI's upload
    /// URL, TestPyPI's for TestPyPI's, else `/simple/` on the upload URL's server.
    package var indexURL: String?
    /// The long description's file (relative to the project); nil: the first of README.md,
    /// README.rst, README.txt, README in the project root, else the description's later lines.
    package var readme: String?
    /// `Requires-Python` in METADATA.
    package var requiresPython: String = ">=3.7"
    package var line: Int?

    package init(package: String) { self.package = package }
}
