import Foundation
import RemconvCore
import Testing

/// Runs `body`, which must throw the `RemconvError` case named `caseName` (`"storeTooNew"`),
/// and returns the error's message for further checks ("" after recording an issue).
@discardableResult
public func expectRemconvError<T>(
  _ caseName: String, sourceLocation: Testing.SourceLocation = #_sourceLocation, _ body: () throws -> T
) -> String {
  do {
    _ = try body()
    Issue.record("expected RemconvError.\(caseName), nothing was thrown", sourceLocation: sourceLocation)
  } catch let error as RemconvError {
    let name = Mirror(reflecting: error).children.first?.label ?? String(describing: error)
    if name == caseName { return error.description }
    Issue.record("expected RemconvError.\(caseName), got .\(name): \(error)", sourceLocation: sourceLocation)
  } catch {
    Issue.record("expected RemconvError.\(caseName), got \(error)", sourceLocation: sourceLocation)
  }
  return ""
}

/// Runs `body` and expects the file at `path` to have the same bytes afterwards.
public func expectUntouched(
  _ path: String, sourceLocation: Testing.SourceLocation = #_sourceLocation, _ body: () throws -> Void
) throws {
  let before = try FixtureStores.digest(path)
  try body()
  #expect(try FixtureStores.digest(path) == before, "\(path) was changed", sourceLocation: sourceLocation)
}
