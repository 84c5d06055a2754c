import Drumlin
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The Swift package reports the version and ABI version written in include/drumlin.h.
@Suite struct LibraryVersionTests {
    /// The value of `#define NAME value` in include/drumlin.h, quotes removed.
    func headerDefine(_ name: String) throws -> String {
        let header = String(#filePath.split(separator: "/").dropLast(3).joined(separator: "/"))
        let path = "/" + header + "/include/drumlin.h"
        guard let file = fopen(path, "r") else { throw HeaderMissing(path: path) }
        defer { fclose(file) }
        var line: UnsafeMutablePointer<CChar>? = nil
        var capacity = 0
        defer { free(line) }
        while getline(&line, &capacity, file) > 0, let line {
            let words = String(cString: line).split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" })
            if words.count >= 3, words[0] == "#define", words[1] == name {
                return String(words[2].filter { $0 != "\"" })
            }
        }
        throw HeaderMissing(path: "\(path): \(name)")
    }

    struct HeaderMissing: Error { let path: String }

    @Test func versionAndABIVersionAreTheHeaders() throws {
        #expect(DrumlinLibrary.version == (try headerDefine("DRUMLIN_VERSION")))
        #expect(DrumlinLibrary.abiVersion == Int(try headerDefine("DRUMLIN_ABI_VERSION")))
        #expect(DrumlinLibrary.version.split(separator: ".").count == 3)
    }
}
