import DemoApp
import Foundation
import Testing

@Suite("Feature screens")
struct DemoFeatureTests {
  @Test func aCommandsWordIsTheFirstWordOfItsUsage() {
    #expect(CommandHelp("text TEXT", "").word == "text")
    #expect(CommandHelp("add [TEXT]", "").word == "add")
    #expect(CommandHelp("back", "").word == "back")
  }

  @Test func aScreenAcceptsItsOwnCommandsAndListsTheSharedOnesLast() {
    let screen = ScriptScreen(
      name: "detail", commands: [CommandHelp("on", ""), CommandHelp("text TEXT", "")])
    #expect(screen.accepts("text"))
    #expect(!screen.accepts("render"), "render, help and quit are the runner's")
    #expect(!screen.accepts("TEXT"))
    #expect(screen.usageList == "on, text TEXT, render, graph [dot], trace on|off, help, quit")
    #expect(
      screen.allCommands.map(\.word) == ["on", "text", "render", "graph", "trace", "help", "quit"])
  }

  @Test func theEnvironmentClockIsInjectable() {
    let fixed = Date(timeIntervalSince1970: 1_795_255_200)
    #expect(FeatureEnvironment(now: { fixed }).now() == fixed)
  }
}
