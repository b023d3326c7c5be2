import Foundation
import RemconvTestSupport
import Testing

@testable import RemconvCore

/// The field tables (`Reminder.fields`, `ReminderList.fields`) against everything that must know
/// each field (issue 40): the store's columns, the JSON contract and its schema, the carriage
/// table, the sync's change digest, and both merges. Each failure names the field it is about,
/// so a field added to the model and left out of one of them is found here.
@Suite struct ModelFieldTableTests {
  static let reminderFields = Reminder.fields.map(\.name)
  static let seed: UInt64 = 40

  @Test func theDeclaredColumnsAreTheStoresContentColumns() {
    let declared = Reminder.fields.flatMap(\.columns)
    #expect(Set(declared).count == declared.count, "a column is declared by two fields")
    let encoded = ReminderColumns(Reminder(id: "u", listID: "l", title: "")).contentColumns.map(\.name)
    #expect(Set(declared) == Set(encoded), "declared \(declared), encoded \(encoded)")
    let placement: Set<String> = ["uid", "list_id", "parent_id", "source_digest"]
    let stored = ReminderColumn.written.compactMap(\.name).filter { !placement.contains($0) }
    #expect(Set(stored) == Set(declared), "the store writes \(stored)")
    #expect(Set(ListColumn.allCases.map(\.name)) == Set(ReminderList.fields.flatMap(\.columns) + ["id", "uid"]))
  }

  /// Changing a field changes exactly the columns, JSON members and digest it declares.
  @Test(arguments: reminderFields) func aFieldChangesItsOwnColumnsMembersAndDigest(_ name: String) throws {
    let field = try #require(Reminder.fields.first { $0.name == name })
    var random = SeededGenerator(seed: Self.seed)
    for _ in 0..<20 {
      let before = PropertyValues.reminder(id: "u", list: "l", &random)
      var after = before
      PropertyValues.change(name, of: &after, &random)
      let columns = Self.differing(
        ReminderColumns(before).contentColumns.map { ($0.name, $0.value) },
        ReminderColumns(after).contentColumns.map { ($0.name, $0.value) })
      #expect(!columns.isEmpty && columns.isSubset(of: field.columns), "\(name) changed the columns \(columns)")
      let members = Self.differing(
        ReminderJSON.reminderMembers(before).map { ($0.0, Optional($0.1)) },
        ReminderJSON.reminderMembers(after).map { ($0.0, Optional($0.1)) })
      #expect(!members.isEmpty && members.isSubset(of: field.jsonKeys), "\(name) changed the members \(members)")
      #expect(SyncEngine.digest(before) != SyncEngine.digest(after), "\(name) is not in the sync's digest")
    }
  }

  @Test func theJSONContractAndItsSchemaHoldEveryDeclaredMember() throws {
    let declared = Reminder.fields.flatMap(\.jsonKeys)
    #expect(Set(ReminderJSON.reminderKeys) == Set(declared + ["id", "parentId"]), "\(ReminderJSON.reminderKeys)")
    #expect(Set(ReminderJSON.listKeys) == Set(ReminderList.fields.flatMap(\.jsonKeys) + ["id"]))
    let document = try JSONParser.parse(
      try String(contentsOfFile: Repository.path("docs/schema/remconv.schema.json"), encoding: .utf8))
    let reminder = document["$defs"]?["reminderFields"]?["properties"]?.objectValue ?? [:]
    for key in declared where reminder[key] == nil {
      Issue.record("remconv.schema.json: a reminder has no member \(key)")
    }
    let list = document["$defs"]?["list"]?["properties"]?.objectValue ?? [:]
    // A JSON Lines line names its list's fields with the prefix `list` (`listColor`).
    let line = try JSONParser.parse(
      try String(contentsOfFile: Repository.path("docs/schema/remconv-line.schema.json"), encoding: .utf8))
    let lineList = line["properties"]?.objectValue ?? [:]
    for key in ReminderList.fields.flatMap(\.jsonKeys) {
      if list[key] == nil { Issue.record("remconv.schema.json: a list has no member \(key)") }
      let prefixed = key == "name" ? "list" : "list" + key.prefix(1).uppercased() + key.dropFirst()
      if lineList[prefixed] == nil { Issue.record("remconv-line.schema.json: a line has no member \(prefixed)") }
    }
  }

  @Test func theCarriageTableHasARowForEveryDeclaredField() {
    let declared = Reminder.fields.map(\.name) + Reminder.placementFields + ReminderList.fields.map(\.name)
    #expect(Set(FormatCarriage.fields) == Set(declared), "\(FormatCarriage.fields)")
  }

  /// An import takes a field the source changed; a sync takes one only the other side changed,
  /// keeps one only the store changed, and names one both changed.
  @Test(arguments: reminderFields) func bothMergesReadEveryDeclaredField(_ name: String) {
    var random = SeededGenerator(seed: Self.seed)
    let stored = PropertyValues.reminder(id: "u", list: "l", &random)
    var incoming = stored
    PropertyValues.change(name, of: &incoming, &random)
    let imported = FieldMerge.reminder(incoming, basis: .projection(stored), stored: stored)
    // An import's edit time alone is no edit.
    if name != "editedAt" {
      #expect(imported.merged == incoming, "an import did not take \(name)")
    }
    let theirs = FieldMerge.reminder(incoming, basis: .agreed(stored, storeChanged: true), stored: stored)
    #expect(theirs.merged == incoming && theirs.conflicts.isEmpty, "a sync did not take the remote's \(name)")
    let mine = FieldMerge.reminder(stored, basis: .agreed(stored, storeChanged: true), stored: incoming)
    #expect(mine.merged == incoming && mine.conflicts.isEmpty, "a sync did not keep the store's \(name)")
    var other = stored
    for _ in 0..<8 where other == stored || other == incoming {
      other = stored
      PropertyValues.change(name, of: &other, &random)
    }
    guard other != incoming else { return }  // a flag has one other value
    let both = FieldMerge.reminder(other, basis: .agreed(stored, storeChanged: true), stored: incoming)
    let field = Reminder.fields.first { $0.name == name }
    if case .whole(.conflict) = field?.merging {
      #expect(both.conflicts == [name], "\(name) changed on both sides: \(both.conflicts)")
    } else if case .perKey = field?.merging {
      #expect(!both.conflicts.isEmpty && both.conflicts.allSatisfy { $0.hasPrefix(name + ".") }, "\(both.conflicts)")
    } else {
      #expect(both.conflicts.isEmpty, "\(name) follows its rule, not a conflict: \(both.conflicts)")
    }
  }

  /// The names whose values differ between two lists of named values.
  static func differing(_ left: [(String, String?)], _ right: [(String, String?)]) -> Set<String> {
    Set(zip(left, right).filter { $0.0.1 != $0.1.1 }.map(\.0.0))
  }
}
