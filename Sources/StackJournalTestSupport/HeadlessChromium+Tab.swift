import Foundation

extension HeadlessChromium {
  /// A page open in the browser.
  public final class Tab: @unchecked Sendable {
    let browser: HeadlessChromium
    let target: String
    let session: String

    init(browser: HeadlessChromium, target: String, session: String) {
      self.browser = browser
      self.target = target
      self.session = session
    }

    /// Sends a DevTools protocol command to this tab and returns its result.
    @discardableResult
    public func command(_ method: String, _ parameters: [String: Any] = [:]) throws
      -> [String: Any]
    {
      try browser.send(method, parameters, session: session)
    }

    /// The value of a script expression (awaited when it is a promise), as JSON gives it.
    public func evaluate(_ expression: String) throws -> Any? {
      let result = try browser.send(
        "Runtime.evaluate",
        ["expression": expression, "returnByValue": true, "awaitPromise": true],
        session: session)
      if let exception = result["exceptionDetails"] as? [String: Any] {
        let text =
          ((exception["exception"] as? [String: Any])?["description"] as? String)
          ?? (exception["text"] as? String) ?? "\(exception)"
        throw Failure(description: "The page threw: \(text)")
      }
      return (result["result"] as? [String: Any])?["value"]
    }

    /// A string-valued expression.
    public func string(_ expression: String) throws -> String? {
      try evaluate(expression) as? String
    }

    /// Waits until a script expression is true.
    public func wait(until expression: String, timeout: Double = 30) throws {
      let deadline = Date().addingTimeInterval(timeout)
      while true {
        if (try? evaluate("Boolean(\(expression))")) as? Bool == true { return }
        guard Date() < deadline else {
          throw Failure(description: "The page never made `\(expression)` true in \(timeout) s.")
        }
        usleep(50_000)
      }
    }

    /// Presses and releases a key as a person would (`ArrowRight`, `Home`, `End`, ` `), through
    /// the browser's input pipeline.
    public func press(_ key: String, shift: Bool = false) throws {
      let codes: [String: (code: String, keyCode: Int)] = [
        "ArrowLeft": ("ArrowLeft", 37), "ArrowUp": ("ArrowUp", 38),
        "ArrowRight": ("ArrowRight", 39), "ArrowDown": ("ArrowDown", 40),
        "Home": ("Home", 36), "End": ("End", 35), " ": ("Space", 32), "Tab": ("Tab", 9),
      ]
      guard let code = codes[key] else { throw Failure(description: "No key code for \(key).") }
      var parameters: [String: Any] = [
        "key": key, "code": code.code, "windowsVirtualKeyCode": code.keyCode,
        "nativeVirtualKeyCode": code.keyCode, "modifiers": shift ? 8 : 0,
      ]
      if key == " " { parameters["text"] = " " }
      parameters["type"] = key == " " ? "keyDown" : "rawKeyDown"
      try browser.send("Input.dispatchKeyEvent", parameters, session: session)
      parameters["type"] = "keyUp"
      parameters.removeValue(forKey: "text")
      try browser.send("Input.dispatchKeyEvent", parameters, session: session)
    }

    /// Clicks at a point of the page, in CSS pixels.
    public func click(x: Double, y: Double) throws {
      for type in ["mousePressed", "mouseReleased"] {
        try browser.send(
          "Input.dispatchMouseEvent",
          ["type": type, "x": x, "y": y, "button": "left", "clickCount": 1], session: session)
      }
    }

    /// Sets the viewport's size in CSS pixels.
    public func resize(width: Int, height: Int) throws {
      try browser.send(
        "Emulation.setDeviceMetricsOverride",
        ["width": width, "height": height, "deviceScaleFactor": 1, "mobile": false],
        session: session)
    }

    /// A PNG of the viewport.
    public func screenshot() throws -> Data {
      let result = try browser.send("Page.captureScreenshot", ["format": "png"], session: session)
      guard let text = result["data"] as? String, let data = Data(base64Encoded: text) else {
        throw Failure(description: "Page.captureScreenshot gave no image.")
      }
      return data
    }

    /// Closes the tab.
    public func close() throws {
      try browser.send("Target.closeTarget", ["targetId": target])
    }
  }
}
