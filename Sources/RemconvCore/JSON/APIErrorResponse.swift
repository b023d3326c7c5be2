/// A web API's error response saved in place of its data: `{"error": {"code": …, "message": …}}`,
/// the shape Microsoft Graph and Google's APIs both answer with when a token has expired or a
/// quota is exhausted. Read as data it would be one task without a title; it is refused instead.
enum APIErrorResponse {
  /// Throws when `members`, a top-level object (`depth` 0), is an error response and nothing else.
  static func refuse(
    _ members: [String: JSONValue], depth: Int, from service: String, at location: SourceLocation
  ) throws(RemconvError) {
    guard depth == 0, members.count == 1, let error = members["error"]?.objectValue else { return }
    let code = error["code"].map { $0.stringValue ?? JSONText.encode($0) }
    let message = error["message"]?.stringValue
    let detail = [code, message].compactMap { $0 }.joined(separator: ": ")
    throw .malformedInput(
      "this is an error response from \(service)\(detail.isEmpty ? "" : " (\(detail))"), not its data",
      at: location)
  }
}
