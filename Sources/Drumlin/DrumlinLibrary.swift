internal import CDrumlinHeader

/// The version of this library and of its C ABI, both as written in include/drumlin.h: the C
/// functions `drumlin_version()` / `drumlin_abi_version()`, the Python package and the SONAME
/// (`libdrumlin.so.<abiVersion>`) report the same values.
public enum DrumlinLibrary {
    /// The library version, e.g. "0.1.0".
    public static let version: String = DRUMLIN_VERSION
    /// The C ABI version: bumped only when a shipped C signature or layout changes.
    public static let abiVersion = Int(DRUMLIN_ABI_VERSION)
}
