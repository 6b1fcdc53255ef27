import XCTest
@testable import TesseraCore
@testable import TesseraTiling

final class TileDrawPlannerTests: XCTestCase {
    private let geometry = DeepZoomGeometry(width: 3000, height: 2000, tileSize: 256)

    func testLevelFollowsZoomTimesPixelScale() {
        // 3000 px wide: maxLevel 12. Fit in 1500 points -> 0.5 point per pixel.
        var model = ZoomPanModel(imageSize: PixelSize(width: 3000, height: 2000),
                                 viewportSize: Size(width: 1500, height: 1000), pixelScale: 1)
        XCTAssertEqual(model.zoom, 0.5, accuracy: 1e-12)
        XCTAssertEqual(model.level(in: geometry), 11, "half the pixels: one level down")
        model.resize(viewportSize: Size(width: 1500, height: 1000), pixelScale: 2, time: .zero)
        XCTAssertEqual(model.deviceScale, 1, accuracy: 1e-12)
        XCTAssertEqual(model.level(in: geometry), 12, "on a 2x display the same zoom needs the full level")
        model.zoom(to: model.maxZoom, about: Point(x: 0, y: 0), time: .zero)
        XCTAssertEqual(model.deviceScale, 4, accuracy: 1e-12, "levelsOfDetailBias 2: 4x past native pixels")
        XCTAssertEqual(model.level(in: geometry), 12, "magnified levels draw the finest level")

        XCTAssertEqual(geometry.level(forScale: 0.25), 10)
        XCTAssertEqual(geometry.level(forScale: 0.26), 11, "coarsest level with at least a pixel per device pixel")
        XCTAssertEqual(geometry.level(forScale: 0.2), 10)
    }

    /// With only the level below the target held, every visible point is covered by a drawn tile.
    func testHolesAreFilledFromTheCoarserLevel() {
        let target = 11
        let held = Set(allTiles(level: target - 1))
        let planner = TileDrawPlanner(geometry: geometry)
        let visible = PixelRegion(x: 700, y: 300, width: 1900, height: 1200)
        let plan = planner.plan(level: target, visible: visible, hasBackdrop: false) { held.contains($0) ? .opaque : .absent }
        XCTAssertTrue(plan.isComplete)
        XCTAssertFalse(plan.isSharp)
        XCTAssertEqual(Set(plan.wanted), Set(plan.visibleTiles), "every target tile is still wanted")
        for layer in plan.layers {
            guard case .tile(let tile) = layer.content else { return XCTFail("only tiles expected, got \(layer)") }
            XCTAssertEqual(tile.level, target - 1)
        }
        assertCovered(visible, by: plan)
    }

    func testNearestHeldAncestorIsUsedAndFadingTilesKeepTheirFallback() {
        let target = 12
        let base = allTiles(level: 8)
        let fading = TileID(level: 12, column: 3, row: 2)
        let planner = TileDrawPlanner(geometry: geometry)
        let visible = PixelRegion(x: 600, y: 400, width: 800, height: 600)
        let plan = planner.plan(level: target, visible: visible, hasBackdrop: false) { tile in
            if tile == fading { return .fading }
            return base.contains(tile) ? .opaque : .absent
        }
        XCTAssertTrue(plan.isComplete)
        let forFading = plan.layers.filter { $0.target == fading }.map(\.content)
        XCTAssertEqual(forFading, [.tile(TileID(level: 8, column: 0, row: 0)), .tile(fading)], "coarse first, fading tile on top")
        XCTAssertFalse(plan.wanted.contains(fading))
        assertCovered(visible, by: plan)
    }

    /// Whether an arriving tile fades in: only over something opaque already drawn there, the same
    /// fallbacks the plan draws under it.
    func testAnOpaqueFallbackIsABackdropAnOpaqueAncestorOrAllFourChildren() {
        let planner = TileDrawPlanner(geometry: geometry)
        let tile = TileID(level: 11, column: 2, row: 1)
        let ancestor = TileID(level: 9, column: 0, row: 0)
        let children = geometry.children(of: tile)
        XCTAssertEqual(children.count, 4)
        func fallback(backdrop: Bool = false, _ held: [TileID: TileAvailability]) -> Bool {
            planner.hasOpaqueFallback(tile, hasBackdrop: backdrop) { held[$0] ?? .absent }
        }
        XCTAssertFalse(fallback([:]))
        XCTAssertTrue(fallback(backdrop: true, [:]))
        XCTAssertTrue(fallback([ancestor: .opaque]))
        XCTAssertFalse(fallback([ancestor: .fading]), "a coarser tile still fading in lets the placeholder through")
        XCTAssertFalse(fallback([tile: .opaque]), "the tile itself is no fallback")
        var three: [TileID: TileAvailability] = [:]
        for child in children.dropLast() { three[child] = .opaque }
        XCTAssertFalse(fallback(three))
        three[children.last!] = .opaque
        XCTAssertTrue(fallback(three), "all four finer tiles")
        // The plan's completeness agrees: the same tile, visible alone and absent, is covered just when
        // it has a fallback.
        let visible = geometry.imageRegion(of: tile)
        for held in [[ancestor: TileAvailability.fading], [ancestor: .opaque], three] {
            let plan = planner.plan(level: 11, visible: visible, hasBackdrop: false) { held[$0] ?? .absent }
            XCTAssertEqual(plan.visibleTiles, [tile])
            XCTAssertEqual(plan.isComplete, fallback(held))
        }
    }

    /// An overview with at least the target level's pixels stands for the tiles not held: the plan is sharp,
    /// draws it rather than a blurrier coarser tile, and wants nothing; held tiles are still drawn.
    func testAnOverviewAsFineAsTheLevelIsSharpAndWantsNothing() {
        let target = 10
        let held: Set<TileID> = [TileID(level: target, column: 0, row: 0), TileID(level: target - 2, column: 0, row: 0)]
        let planner = TileDrawPlanner(geometry: geometry)
        let visible = PixelRegion(x: 0, y: 0, width: 3000, height: 2000)
        let availability: (TileID) -> TileAvailability = { held.contains($0) ? .opaque : .absent }
        let plan = planner.plan(level: target, visible: visible, hasBackdrop: true, backdropIsSharp: true,
                                availability: availability)
        XCTAssertTrue(plan.isSharp)
        XCTAssertTrue(plan.isComplete)
        XCTAssertEqual(plan.wanted, [])
        XCTAssertEqual(plan.layers.filter { $0.content == .tile(TileID(level: target, column: 0, row: 0)) }.count, 1)
        XCTAssertFalse(plan.layers.contains { $0.content == .tile(TileID(level: target - 2, column: 0, row: 0)) })
        XCTAssertEqual(plan.layers.filter { $0.content == .backdrop }.count, plan.visibleTiles.count - 1)

        let blurred = planner.plan(level: target, visible: visible, hasBackdrop: true, availability: availability)
        XCTAssertFalse(blurred.isSharp, "an overview with fewer pixels than the level only fills holes")
        XCTAssertEqual(blurred.wanted.count, blurred.visibleTiles.count - 1)
        XCTAssertFalse(planner.plan(level: target, visible: visible, hasBackdrop: false, backdropIsSharp: true,
                                    availability: availability).isSharp, "no overview, nothing stands in")
    }

    func testHeldChildrenFillWhenZoomingOut() {
        let target = 10
        let children = Set(allTiles(level: 11))
        let plan = TileDrawPlanner(geometry: geometry).plan(level: target, visible: PixelRegion(x: 0, y: 0, width: 3000, height: 2000),
                                                            hasBackdrop: false) { children.contains($0) ? .opaque : .absent }
        XCTAssertTrue(plan.isComplete)
        XCTAssertTrue(plan.layers.allSatisfy { if case .tile(let t) = $0.content { t.level == 11 } else { false } })
    }

    func testNothingHeldIsAHoleUnlessThereIsABackdrop() {
        let planner = TileDrawPlanner(geometry: geometry)
        let visible = PixelRegion(x: 0, y: 0, width: 3000, height: 2000)
        XCTAssertFalse(planner.plan(level: 9, visible: visible, hasBackdrop: false) { _ in .absent }.isComplete)
        let withBackdrop = planner.plan(level: 9, visible: visible, hasBackdrop: true) { _ in .absent }
        XCTAssertTrue(withBackdrop.isComplete)
        XCTAssertTrue(withBackdrop.layers.allSatisfy { $0.content == .backdrop })
    }

    func testFailedTilesAreMarkedAndCountAsDone() {
        let planner = TileDrawPlanner(geometry: geometry)
        let visible = PixelRegion(x: 0, y: 0, width: 1000, height: 500)
        let plan = planner.plan(level: 12, visible: visible, hasBackdrop: false) { $0.level == 12 ? .failed : .absent }
        XCTAssertTrue(plan.isComplete)
        XCTAssertTrue(plan.isSharp)
        XCTAssertTrue(plan.wanted.isEmpty)
        XCTAssertTrue(plan.layers.allSatisfy { $0.content == .missing })
    }

    /// Where failures may pass, a failed tile is drawn as one still coming: its held parent under it, the
    /// marked square only where no coarser picture is held.
    func testFailuresThatMayPassShowTheCoarserPictureAndAreMarkedOnlyWithoutOne() throws {
        let planner = TileDrawPlanner(geometry: geometry, showsCoarserUnderFailures: true)
        let visible = PixelRegion(x: 0, y: 0, width: 1024, height: 512)
        let parentOfFirst = try XCTUnwrap(geometry.parent(of: TileID(level: 12, column: 0, row: 0)))
        let plan = planner.plan(level: 12, visible: visible, hasBackdrop: false) { tile in
            if tile.level == 12 { return .failed }
            return tile == parentOfFirst ? .opaque : .absent
        }
        XCTAssertTrue(plan.isComplete)
        XCTAssertTrue(plan.wanted.isEmpty, "failed tiles are tried again by their schedule, not asked for")
        for tile in plan.visibleTiles {
            let contents = plan.layers.filter { $0.target == tile }.map(\.content)
            if geometry.parent(of: tile) == parentOfFirst {
                XCTAssertEqual(contents, [.tile(parentOfFirst)], "\(tile): the coarser picture, no mark")
            } else {
                XCTAssertEqual(contents, [.missing], "\(tile): nothing coarser held, so the error square")
            }
        }
        let withBackdrop = planner.plan(level: 12, visible: visible, hasBackdrop: true) { $0.level == 12 ? .failed : .absent }
        XCTAssertTrue(withBackdrop.layers.allSatisfy { $0.content == .backdrop }, "the overview is a coarser picture too")
    }

    func testFailedLocalTilesAreMarkedOverACoarserPicture() {
        let planner = TileDrawPlanner(geometry: geometry)
        let plan = planner.plan(level: 12, visible: PixelRegion(x: 0, y: 0, width: 1024, height: 512), hasBackdrop: true) {
            $0.level == 12 ? .failed : .opaque
        }
        XCTAssertTrue(plan.layers.allSatisfy { $0.content == .missing }, "a broken file stays marked")
    }

    func testWantedTilesStartNearestTheCentre() {
        let plan = TileDrawPlanner(geometry: geometry).plan(level: 12, visible: PixelRegion(x: 0, y: 0, width: 1280, height: 768),
                                                            hasBackdrop: false) { _ in .absent }
        XCTAssertEqual(plan.wanted.count, 15)
        let first = geometry.imageRegion(of: plan.wanted[0])
        XCTAssertTrue(first.x <= 640 && first.maxX >= 640 && first.y <= 384 && first.maxY >= 384, "\(plan.wanted[0])")
    }

    func testBasePinnedAndPolicyLevels() {
        let giant = DeepZoomGeometry(width: 20480, height: 11520)
        let policy = TilePyramidPolicy()
        XCTAssertEqual(policy.baseLevel(in: giant), 9, "320x180, two tiles")
        XCTAssertEqual(policy.baseTiles(in: giant).count, 2)
        XCTAssertTrue(policy.isPinned(11, in: giant), "1280x720 fits in a megapixel")
        XCTAssertFalse(policy.isPinned(12, in: giant))
        // A plain image as one tile per level pins only its small levels.
        let single = DeepZoomGeometry(width: 4000, height: 3000, tileSize: 4000)
        XCTAssertEqual(single.levelSize(policy.baseLevel(in: single)), PixelSize(width: 500, height: 375))
        XCTAssertFalse(policy.isPinned(single.maxLevel, in: single))
    }

    // MARK: - Helpers

    private func allTiles(level: Int) -> [TileID] {
        let size = geometry.levelSize(level)
        return geometry.tiles(in: level, intersecting: PixelRegion(x: 0, y: 0, width: size.width, height: size.height))
    }

    /// Every 7th full-resolution point of `visible` lies inside some opaque layer's drawn area.
    private func assertCovered(_ visible: PixelRegion, by plan: TileDrawPlan, file: StaticString = #filePath, line: UInt = #line) {
        let areas: [PixelRegion] = plan.layers.compactMap { layer in
            let target = geometry.imageRegion(of: layer.target)
            switch layer.content {
            case .tile(let tile): return geometry.imageRegion(of: tile).intersection(target)
            case .backdrop, .missing: return target
            }
        }
        var uncovered = 0
        for y in stride(from: visible.y, to: visible.maxY, by: 7) {
            for x in stride(from: visible.x, to: visible.maxX, by: 7) {
                if !areas.contains(where: { x >= $0.x && x < $0.maxX && y >= $0.y && y < $0.maxY }) { uncovered += 1 }
            }
        }
        XCTAssertEqual(uncovered, 0, "uncovered points", file: file, line: line)
    }
}
