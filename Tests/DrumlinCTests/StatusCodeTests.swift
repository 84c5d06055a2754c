import CDrumlinHeader
import DrumlinC
import DrumlinEngine
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// include/drumlin.h is the one source of the status codes and of the constants the engine writes
/// as raw values. The engine cannot import the header, so its copies (DrumlinError.Code, UpdateMode,
/// LogLevel) are checked here against the header's text and its imported macros: a code added,
/// removed, renumbered or renamed on either side fails.
@Suite struct StatusCodeTests {
    /// Every `#define DRUMLIN_<prefix>... <integer>` of include/drumlin.h, in order.
    static func headerConstants(prefix: String) throws -> [(name: String, value: Int32)] {
        let root = String(#filePath.split(separator: "/").dropLast(3).joined(separator: "/"))
        let path = "/" + root + "/include/drumlin.h"
        guard let file = fopen(path, "r") else { throw HeaderMissing(path: path) }
        defer { fclose(file) }
        var line: UnsafeMutablePointer<CChar>? = nil
        var capacity = 0
        defer { free(line) }
        var found: [(name: String, value: Int32)] = []
        while getline(&line, &capacity, file) > 0, let line {
            let words = String(cString: line).split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" })
            if words.count >= 3, words[0] == "#define", words[1].hasPrefix(prefix), let value = Int32(words[2]) {
                found.append((String(words[1]), value))
            }
        }
        return found
    }

    struct HeaderMissing: Error { let path: String }

    static func statusCodes() throws -> [(name: String, value: Int32)] {
        try headerConstants(prefix: "DRUMLIN_").filter {
            $0.name == "DRUMLIN_OK" || $0.name == "DRUMLIN_NOT_FOUND" || $0.name.hasPrefix("DRUMLIN_ERR_")
        }
    }

    @Test func theEngineErrorCodesAreTheHeadersNumberForNumberAndNameForName() throws {
        let header = try Self.headerConstants(prefix: "DRUMLIN_ERR_")
        #expect(header.count >= 20, "the header's DRUMLIN_ERR_* codes were not found")
        let engine = DrumlinError.Code.allCases.map { (name: "DRUMLIN_ERR_" + $0.name, value: $0.rawValue) }
        #expect(engine.map(\.name) == header.map(\.name))
        #expect(engine.map(\.value) == header.map(\.value))
        for code in header {
            #expect(DrumlinError.Code(rawValue: code.value).name == code.name.dropFirst("DRUMLIN_ERR_".count).description)
        }
    }

    @Test func statusNameGivesTheHeadersNameForEveryStatusCode() throws {
        let header = try Self.statusCodes()
        #expect(header.first?.name == "DRUMLIN_OK" && header.first?.value == DRUMLIN_OK)
        for code in header {
            #expect(String(cString: DrumlinC.drumlin_status_name(code.value)!) == code.name)
        }
        let unknown = (header.map(\.value).max() ?? 0) + 1
        #expect(String(cString: DrumlinC.drumlin_status_name(unknown)!) == "DRUMLIN_UNKNOWN")
        #expect(String(cString: DrumlinC.drumlin_status_name(-1)!) == "DRUMLIN_UNKNOWN")
    }

    /// The imported macros: a constant the header renames fails to compile here.
    @Test func theEngineRawValuesAreTheHeadersMacros() {
        #expect(DrumlinError.Code.misuse.rawValue == DRUMLIN_ERR_MISUSE)
        #expect(DrumlinError.Code.internal.rawValue == DRUMLIN_ERR_INTERNAL)
        #expect(UpdateMode.never.rawValue == DRUMLIN_UPDATE_NEVER)
        #expect(UpdateMode.modified.rawValue == DRUMLIN_UPDATE_MODIFIED)
        #expect(UpdateMode.all.rawValue == DRUMLIN_UPDATE_ALL)
        #expect(LogLevel.debug.rawValue == DRUMLIN_LOG_DEBUG)
        #expect(LogLevel.info.rawValue == DRUMLIN_LOG_INFO)
        #expect(LogLevel.warning.rawValue == DRUMLIN_LOG_WARNING)
        #expect(LogLevel.error.rawValue == DRUMLIN_LOG_ERROR)
        #expect(Synchronous.normal.rawValue == DRUMLIN_SYNCHRONOUS_NORMAL)
        #expect(Synchronous.full.rawValue == DRUMLIN_SYNCHRONOUS_FULL)
    }

    @Test func everyHeaderUpdateModeAndLogLevelHasAnEngineCase() throws {
        for mode in try Self.headerConstants(prefix: "DRUMLIN_UPDATE_") {
            #expect(UpdateMode(rawValue: mode.value) != nil, "\(mode.name)")
        }
        for level in try Self.headerConstants(prefix: "DRUMLIN_LOG_") {
            #expect(LogLevel(rawValue: level.value) != nil, "\(level.name)")
        }
    }
}
