import DemoApp
import Testing

@Suite("Script errors")
struct ScriptErrorTests {
  private let list = ScriptScreen(
    name: "list", commands: [CommandHelp("add [TEXT]", "add"), CommandHelp("toggle N", "toggle")])
  private let detail = ScriptScreen(name: "detail", commands: [CommandHelp("on", "on")])

  @Test func anUnknownCommandListsTheCommandsOfTheScreen() {
    #expect(
      ScriptError.unknownCommand("frob", on: list).description
        == "unknown command 'frob'; on the list screen use: add [TEXT], toggle N, render, graph [dot], trace on|off, help, quit"
    )
  }

  @Test func aMisplacedCommandNamesItsScreenAndListsTheCommandsOfThisOne() {
    #expect(
      ScriptError.misplacedCommand("add", belongingTo: list, on: detail).description
        == "'add' is a list command; on the detail screen use: on, render, graph [dot], trace on|off, help, quit"
    )
  }
}

@Suite("Script errors' wording")
struct ScriptErrorWordingTests {
  @Test(arguments: [("list", "a list"), ("editor", "an editor"), ("update", "an update")])
  func aMisplacedCommandTakesTheRightArticle(screen: String, phrase: String) {
    let home = ScriptScreen(name: screen, commands: [CommandHelp("go", "go")])
    let here = ScriptScreen(name: "here", commands: [])
    #expect(
      ScriptError.misplacedCommand("go", belongingTo: home, on: here).message
        == "'go' is \(phrase) command; on the here screen use: render, graph [dot], trace on|off, help, quit"
    )
  }
}
