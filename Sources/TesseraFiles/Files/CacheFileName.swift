import CCrypto

/// The names of cache files: the lower-case hex MD5 of a key. The freedesktop thumbnail standard names a
/// thumbnail after the MD5 of the original's URI; the remote image cache (after the URL) and the tile
/// pyramid cache (after path, size and time) follow the same scheme. Not for anything security-related.
///
/// MD5 from OpenSSL's libcrypto, which FoundationNetworking's libcurl already loads.
package enum CacheFileName {
    /// 32 lower-case hex digits: the MD5 of the UTF-8 bytes of `key`.
    package static func md5Hex(_ key: String) -> String {
        // "-fips": MD5 names files here, it guards nothing, so a FIPS-only default must not refuse it.
        let md5 = EVP_MD_fetch(nil, "MD5", "-fips")
        defer { EVP_MD_free(md5) }
        var bytes = Array(key.utf8)
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let status = bytes.withUnsafeMutableBytes { input in
            digest.withUnsafeMutableBufferPointer { output in
                EVP_Digest(input.baseAddress, input.count, output.baseAddress, &length, md5, nil)
            }
        }
        // Without MD5 no cache file can be named as other programs and earlier runs name it.
        precondition(md5 != nil && status == 1 && length == 16, "MD5 is not available from libcrypto")
        let digits = Array("0123456789abcdef".utf8)
        var hex = [UInt8]()
        hex.reserveCapacity(32)
        for byte in digest.prefix(16) {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: hex, as: UTF8.self)
    }
}
