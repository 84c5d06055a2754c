import DrumlinSyncProtocol
import Foundation
import JWTKit

/// The claims the service reads. Their checks are made after the signature is verified, by
/// `TokenVerifier`, so that an expired but genuine token is told apart (`token_expired`) from a
/// forged one (`bad_authentication`).
struct SyncClaims: JWTPayload {
    var sub: SubjectClaim?
    var exp: ExpirationClaim?
    var nbf: NotBeforeClaim?
    var aud: AudienceClaim?
    var iss: IssuerClaim?

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// Verifies the JWTs clients present, with the public key the service is configured with (PEM:
/// RSA for RS256, or EC P-256 for ES256).
struct TokenVerifier: Sendable {
    let keys: JWTKeyCollection
    let audience: String?
    let issuer: String?

    static func load(publicKeyFile path: String, audience: String?, issuer: String?) async throws -> TokenVerifier {
        guard let pem = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw StartupError("cannot read the JWT public key file '\(path)'")
        }
        let keys = JWTKeyCollection()
        if let key = try? ES256PublicKey(pem: pem) {
            await keys.add(ecdsa: key)
        } else if let key = try? Insecure.RSA.PublicKey(pem: pem) {
            await keys.add(rsa: key, digestAlgorithm: .sha256)
        } else {
            throw StartupError("'\(path)' holds no PEM public key the service can use: give an RSA (RS256, 2048 bits or more) or EC P-256 (ES256) public key")
        }
        return TokenVerifier(keys: keys, audience: audience, issuer: issuer)
    }

    /// The user id (`sub`) of a valid token, or the protocol error that says why it is not one.
    func userId(of token: String, now: Date = Date()) async throws(SyncError) -> String {
        func bad(_ why: String) -> SyncError { SyncError(.badAuthentication, "The token was refused: \(why)") }
        if token.isEmpty { throw bad("the hello frame's token is empty") }
        let claims: SyncClaims
        do {
            claims = try await keys.verify(token, as: SyncClaims.self)
        } catch let error as JWTError {
            switch error.errorType {
            case .malformedToken: throw bad("it is not a JWT (three base64url parts)")
            case .signatureVerificationFailed: throw bad("its signature does not verify with the service's key")
            default: throw bad(error.reason ?? "\(error.errorType)")
            }
        } catch {
            throw bad("its claims could not be read (\(error))")
        }
        guard let exp = claims.exp else { throw bad("it has no 'exp' (expiry) claim") }
        if exp.value <= now {
            throw SyncError(.tokenExpired, "The token expired at \(Self.iso(exp.value)); fetch a new one and reconnect")
        }
        if let nbf = claims.nbf, nbf.value > now {
            throw bad("it is not valid before \(Self.iso(nbf.value)) ('nbf')")
        }
        if let audience, !(claims.aud?.value.contains(audience) ?? false) {
            throw bad("its audience ('aud') is not '\(audience)'")
        }
        if let issuer, claims.iss?.value != issuer {
            throw bad("its issuer ('iss') is not '\(issuer)'")
        }
        guard let user = claims.sub?.value, !user.isEmpty else { throw bad("it has no 'sub' (user id) claim") }
        return user
    }

    private static func iso(_ date: Date) -> String {
        ISO8601DateFormatter().string(from: date)
    }
}
