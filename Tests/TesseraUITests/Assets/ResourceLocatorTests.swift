import Foundation
import TesseraUI
import XCTest

/// Where the binary looks for its resources, installed and in a checkout.
final class ResourceLocatorTests: XCTestCase {
    private var root: URL!
    private let noEnvironment: [String: String] = [:]

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-resources-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: root) }

    private func makeFolder(_ path: String) throws -> URL {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    func testAnInstalledBinaryFindsShareTesseraBesideItsBinFolder() throws {
        _ = try makeFolder("prefix/share/tessera/UI")
        let executable = try makeFolder("prefix/bin").appendingPathComponent("tessera")
        let found = ResourceLocator.resourcesFolder(environment: noEnvironment, executable: executable,
                                                    workingDirectory: try makeFolder("elsewhere"))
        XCTAssertEqual(found?.standardizedFileURL.path, root.appendingPathComponent("prefix/share/tessera").path)
    }

    func testABuiltBinaryFindsTheCheckoutsResources() throws {
        _ = try makeFolder("checkout/Resources/UI")
        let executable = try makeFolder("checkout/.build/x86_64-unknown-linux-gnu/release").appendingPathComponent("tessera")
        let found = ResourceLocator.resourcesFolder(environment: noEnvironment, executable: executable,
                                                    workingDirectory: try makeFolder("elsewhere"))
        XCTAssertEqual(found?.standardizedFileURL.path, root.appendingPathComponent("checkout/Resources").path)
    }

    func testTheEnvironmentWinsAndNothingFoundIsNil() throws {
        let executable = try makeFolder("prefix/bin").appendingPathComponent("tessera")
        let nowhere = try makeFolder("elsewhere")
        XCTAssertNil(ResourceLocator.resourcesFolder(environment: noEnvironment, executable: executable,
                                                     workingDirectory: nowhere))
        _ = try makeFolder("prefix/share/tessera/UI")
        let custom = ResourceLocator.resourcesFolder(environment: ["TESSERA_RESOURCES": "/opt/custom"],
                                                     executable: executable, workingDirectory: nowhere)
        XCTAssertEqual(custom?.path, "/opt/custom")
    }

    func testTheRunningExecutableIsAnAbsolutePathToAFile() {
        let executable = ResourceLocator.runningExecutable
        XCTAssertTrue(executable.path.hasPrefix("/"), executable.path)
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: executable.path), executable.path)
    }
}
