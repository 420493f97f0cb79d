import Testing

@testable import Presentation

/// JSON text as the results' files hold it: strings escaped, containers indented.
@Suite("JSON text: strings escaped, containers indented")
struct JSONTextTests {
  @Test("plain strings whole; quotes, backslashes, controls and line separators escaped; other text as is")
  func strings() {
    let cases: [(String, String)] = [
      ("plain text", #""plain text""#),
      ("say \"hi\"", #""say \"hi\"""#),
      ("a\\b", #""a\\b""#),
      ("one\ntwo\tthree\r", #""one\ntwo\tthree\r""#),
      ("bell\u{7}", #""bell\u0007""#),
      ("line\u{2028}para\u{2029}", #""line\u2028para\u2029""#),
      ("café → 5 €", "\"café → 5 €\""),
      ("", #""""#),
    ]
    for (value, text) in cases {
      #expect(JSONValue.string(value).text() == text, "\(value)")
    }
  }

  @Test("containers indented by level, scalars inline, empty containers closed at once")
  func indented() {
    let v = JSONValue.object([
      ("a", .array([.int(1), .number(0.5), .null])), ("b", .object([("c", .bool(true))])), ("d", .array([])),
    ])
    #expect(v.text() == #"{"a":[1,0.5,null],"b":{"c":true},"d":[]}"#)
    #expect(v.text(indent: 2) == "{\n  \"a\": [\n    1,\n    0.5,\n    null\n  ],\n  \"b\": {\n    \"c\": true\n  },\n  \"d\": []\n}")
  }
}
