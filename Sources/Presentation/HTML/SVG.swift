import Study
/// HTML text with every user-supplied string escaped: scenario, variant and study names,
/// descriptions and questionnaire text end up in `report.html`, which people e-mail and open
/// in browsers, so nothing of theirs may become markup or script.
public enum HTML {
  /// Escapes text for an element's content or a quoted attribute.
  public static func escape(_ s: String) -> String {
    var out = ""
    out.reserveCapacity(s.count)
    for c in s.unicodeScalars {
      switch c {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&#39;"
      default:
        if c.value < 0x20 && c != "\n" && c != "\t" { out += "&#\(c.value);" } else { out.unicodeScalars.append(c) }
      }
    }
    return out
  }
}

/// A small SVG chart builder: a plotting area with axes, lines, bars and labels.
struct SVGChart {
  let width: Double
  let height: Double
  let left = 46.0
  let right = 12.0
  let top = 14.0
  let bottom = 30.0
  var x: ClosedRange<Double>
  var y: ClosedRange<Double>
  var body = ""

  init(width: Double = 420, height: Double = 200, x: ClosedRange<Double>, y: ClosedRange<Double>) {
    self.width = width
    self.height = height
    self.x = x.lowerBound == x.upperBound ? x.lowerBound...(x.lowerBound + 1) : x
    self.y = y.lowerBound == y.upperBound ? y.lowerBound...(y.lowerBound + 1) : y
  }

  func px(_ v: Double) -> Double { left + (v - x.lowerBound) / (x.upperBound - x.lowerBound) * (width - left - right) }
  func py(_ v: Double) -> Double { height - bottom - (v - y.lowerBound) / (y.upperBound - y.lowerBound) * (height - top - bottom) }

  static func f(_ v: Double) -> String { NumberText.fixed(v.isFinite ? v : 0, 1) }

  mutating func axes(xLabel: String, yLabel: String, xTicks: [(Double, String)], yTicks: [(Double, String)]) {
    let x0 = px(x.lowerBound)
    let x1 = px(x.upperBound)
    let y0 = py(y.lowerBound)
    let y1 = py(y.upperBound)
    body += "<line x1='\(Self.f(x0))' y1='\(Self.f(y0))' x2='\(Self.f(x1))' y2='\(Self.f(y0))' class='axis'/>"
    body += "<line x1='\(Self.f(x0))' y1='\(Self.f(y0))' x2='\(Self.f(x0))' y2='\(Self.f(y1))' class='axis'/>"
    for (v, label) in xTicks {
      let xx = px(v)
      body += "<line x1='\(Self.f(xx))' y1='\(Self.f(y0))' x2='\(Self.f(xx))' y2='\(Self.f(y0 + 4))' class='axis'/>"
      body += "<text x='\(Self.f(xx))' y='\(Self.f(y0 + 15))' class='tick' text-anchor='middle'>\(HTML.escape(label))</text>"
    }
    for (v, label) in yTicks {
      let yy = py(v)
      body += "<line x1='\(Self.f(x0 - 4))' y1='\(Self.f(yy))' x2='\(Self.f(x1))' y2='\(Self.f(yy))' class='grid'/>"
      body += "<text x='\(Self.f(x0 - 6))' y='\(Self.f(yy + 4))' class='tick' text-anchor='end'>\(HTML.escape(label))</text>"
    }
    body += "<text x='\(Self.f((x0 + x1) / 2))' y='\(Self.f(height - 3))' class='label' text-anchor='middle'>\(HTML.escape(xLabel))</text>"
    body += "<text x='12' y='\(Self.f((y0 + y1) / 2))' class='label' text-anchor='middle' transform='rotate(-90 12 \(Self.f((y0 + y1) / 2)))'>\(HTML.escape(yLabel))</text>"
  }

  mutating func line(_ points: [(Double, Double)], cssClass: String) {
    let finite = points.filter { $0.0.isFinite && $0.1.isFinite }
    guard !finite.isEmpty else { return }
    let d = finite.map { "\(Self.f(px($0.0))),\(Self.f(py(min(max($0.1, y.lowerBound), y.upperBound))))" }.joined(separator: " ")
    body += "<polyline points='\(d)' class='\(cssClass)'/>"
  }

  mutating func bar(x0: Double, x1: Double, value: Double, cssClass: String, title: String) {
    guard value.isFinite else { return }
    let a = px(x0)
    let b = px(x1)
    let top = py(min(value, y.upperBound))
    let base = py(max(y.lowerBound, 0))
    body += "<rect x='\(Self.f(a))' y='\(Self.f(min(top, base)))' width='\(Self.f(max(b - a, 0.5)))' height='\(Self.f(abs(base - top)))' class='\(cssClass)'><title>\(HTML.escape(title))</title></rect>"
  }

  mutating func errorBar(x: Double, low: Double, mid: Double, high: Double, title: String) {
    guard mid.isFinite else { return }
    let xx = px(x)
    if low.isFinite && high.isFinite {
      body += "<line x1='\(Self.f(xx))' y1='\(Self.f(py(low)))' x2='\(Self.f(xx))' y2='\(Self.f(py(high)))' class='whisker'/>"
    }
    body += "<circle cx='\(Self.f(xx))' cy='\(Self.f(py(mid)))' r='4' class='dot'><title>\(HTML.escape(title))</title></circle>"
  }

  /// A dashed vertical line at `x`, labelled at its top.
  mutating func vline(x v: Double, label: String) {
    guard v >= x.lowerBound && v <= x.upperBound else { return }
    let xx = Self.f(px(v))
    body += "<line x1='\(xx)' y1='\(Self.f(py(y.lowerBound)))' x2='\(xx)' y2='\(Self.f(py(y.upperBound)))' class='target'/>"
    body += "<text x='\(xx)' y='\(Self.f(py(y.upperBound) + 10))' class='tick' text-anchor='start' dx='3'>\(HTML.escape(label))</text>"
  }

  mutating func text(_ s: String, x: Double, y: Double, anchor: String = "middle") {
    body += "<text x='\(Self.f(px(x)))' y='\(Self.f(py(y)))' class='tick' text-anchor='\(anchor)'>\(HTML.escape(s))</text>"
  }

  var svg: String {
    // As wide as its figure (the viewBox keeps the proportions), at most 1.35 times its drawn size.
    "<svg xmlns='http://www.w3.org/2000/svg' width='100%' viewBox='0 0 \(Self.f(width)) \(Self.f(height))' style='max-width:\(Self.f(1.35 * width))px' role='img'>\(body)</svg>"
  }
}
