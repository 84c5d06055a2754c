import DrumlinEngine
import Testing

/// `Decimal128.isCanonical`: the texts a bulk create stores as they are must be exactly what
/// storing the parsed decimal writes (its `description`).
@Suite struct DecimalCanonicalTextTests {
    func canonical(_ text: String) -> Bool {
        Array(text.utf8).withUnsafeBytes { Decimal128.isCanonical($0) }
    }

    @Test func canonicalTextsPrintAsThemselves() throws {
        let texts = ["0", "-0", "7", "12.5", "-12.50", "100", "0.5", "0.000001", "0.000000", "-0.0", "0.0012300",
                     "1234567890123456789012345678901234", "0.123456789012345678901234567890123"]
        for text in texts {
            #expect(canonical(text), "\(text)")
            #expect(Decimal128(string: text)?.description == text, "\(text)")
        }
    }

    @Test func textsOutsideThePlainFormAreNotTakenAsCanonical() throws {
        // Not decimals, decimals that print otherwise, or (E notation, special values) forms
        // left to the parse and print.
        let texts = ["", "-", "+1", "01", "00", "1.", ".5", "1e3", "1E+3", "0.0000001", "0.0000000", "NaN", "Infinity",
                     "1.2.3", "1 ", "12345678901234567890123456789012345", "0.1234567890123456789012345678901234", "١"]
        for text in texts {
            #expect(!canonical(text), "\(text)")
        }
        // The ones that parse print otherwise.
        for text in ["+1", "01", "1e3", "0.0000001", "0.0000000"] {
            #expect(Decimal128(string: text)?.description != text, "\(text)")
        }
    }

    @Test func textInPlaceParsesAsTheString() throws {
        // What a row read parses a stored decimal's column text with (no String made).
        for text in ["0", "-12.50", "1e3", "+1", "0.0000001", "NaN", "-Infinity", "", "1.2.3", "12345678901234567890123456789012345"] {
            let inPlace = Array(text.utf8).withUnsafeBufferPointer { Decimal128(utf8: $0) }
            #expect(inPlace == Decimal128(string: text), "\(text)")
        }
    }
}
