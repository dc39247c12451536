import Foundation
import Testing
import UniversalLinkKit

/// Request header fields keep their order and repeated names.
struct HeaderFieldsTests {
    @Test func repeatedFieldsAreKeptInOrderAndLookedUpCaseInsensitively() {
        var fields: HeaderFields = ["Accept": "application/json"]
        fields.append(name: "Cache-Control", value: "no-cache")
        fields.append(name: "cache-control", value: "no-store")
        #expect(fields.count == 3)
        #expect(fields["ACCEPT"] == "application/json")
        #expect(fields.values(for: "Cache-Control") == ["no-cache", "no-store"])
        #expect(fields.map(\.name) == ["Accept", "Cache-Control", "cache-control"])
    }

    @Test func settingANameReplacesEveryFieldOfItInPlaceAndNilRemovesThem() {
        var fields: HeaderFields = ["A": "1", "B": "2", "b": "3", "C": "4"]
        fields["B"] = "x"
        #expect(fields.map(\.value) == ["1", "x", "4"])
        fields["b"] = nil
        #expect(fields.map(\.name) == ["A", "C"])
        fields["D"] = "5"
        #expect(fields.map(\.name) == ["A", "C", "D"])
    }

    @Test func theMethodIsTyped() {
        #expect(TransportRequest(url: .init(string: "https://example.com")!).method == .get)
        let head: TransportRequest.Method = "HEAD"
        #expect(head == .head)
        #expect(head.description == "HEAD")
    }
}
