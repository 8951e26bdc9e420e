import DemoApp
import Testing

private let listUsage =
  "add [TITLE], delete N, open N, edit N, toggle N, filter WHICH, wait DURATION, refresh, undo, redo, "
  + "render, graph [dot], trace on|off, help, quit"
private let detailUsage =
  "title TEXT, delete, back, undo, redo, render, graph [dot], trace on|off, help, quit"

private let sheetUsage =
  "title TEXT, toggle, done, cancel, render, graph [dot], trace on|off, help, quit"

/// Script-mode flows of the to-do list, each compared whole: the exit
/// status, everything printed to standard output and to standard error.
@MainActor
@Suite("To-do in script mode")
struct ToDoScriptTests {
  @Test func theListStartsWithTwoItemsAndAddAppendsWithTheDefaultOrTheExactTitle() async {
    // Spelled with \n: the trailing spaces are part of the test.
    #expect(
      await runScript("render\nadd\nadd  two  spaces \nadd \n", arguments: ["todo"])
        == Transcript(
          status: 0,
          output: "To-do (2 of 10, add: enabled)\n"
            + "  1. ToDo Item 1\n"
            + "  2. ToDo Item 2\n"
            + "Last change: insert [1]\n"
            + "\n"
            + "To-do (3 of 10, add: enabled)\n"
            + "  1. ToDo Item 1\n"
            + "  2. ToDo Item 2\n"
            + "  3. ToDo Item 3\n"
            + "Last change: insert [2]\n"
            + "\n"
            + "To-do (4 of 10, add: enabled)\n"
            + "  1. ToDo Item 1\n"
            + "  2. ToDo Item 2\n"
            + "  3. ToDo Item 3\n"
            + "  4.  two  spaces \n"
            + "Last change: insert [3]\n"
            + "\n"
            + "To-do (5 of 10, add: enabled)\n"
            + "  1. ToDo Item 1\n"
            + "  2. ToDo Item 2\n"
            + "  3. ToDo Item 3\n"
            + "  4.  two  spaces \n"
            + "  5. ToDo Item 5\n"
            + "Last change: insert [4]\n"))
  }

  @Test func openEditTheTitleGoBackAndDeleteOnBothScreens() async {
    #expect(
      await runScript(
        """
        open 2
        title Buy oat milk
        render
        back
        delete 1
        open 1
        title 牛乳 🥛 e\u{301}
        delete
        """, arguments: ["todo"])
        == Transcript(
          status: 0,
          output: """
            To-do item
              Title: ToDo Item 2

            To-do item
              Title: Buy oat milk

            To-do item
              Title: Buy oat milk

            To-do (2 of 10, add: enabled)
              1. ToDo Item 1
              2. Buy oat milk
            Last change: update [1]

            To-do (1 of 10, add: enabled)
              1. Buy oat milk
            Last change: remove [0]

            To-do item
              Title: Buy oat milk

            To-do item
              Title: 牛乳 🥛 e\u{301}

            To-do (0 of 10, add: enabled)
            Last change: remove [0]

            """))
  }

  @Test func addAtTenItemsIsAnErrorUntilAnItemIsDeleted() async {
    #expect(
      await runScript(
        """
        add
        add
        add
        add
        add
        add
        add
        add
        render
        add
        add one too many
        delete 10
        add Last
        render
        """, arguments: ["todo", "--quiet"])
        == Transcript(
          status: 1,
          output: """
            To-do (10 of 10, add: disabled)
               1. ToDo Item 1
               2. ToDo Item 2
               3. ToDo Item 3
               4. ToDo Item 4
               5. ToDo Item 5
               6. ToDo Item 6
               7. ToDo Item 7
               8. ToDo Item 8
               9. ToDo Item 9
              10. ToDo Item 10
            Last change: insert [9]

            To-do (10 of 10, add: disabled)
               1. ToDo Item 1
               2. ToDo Item 2
               3. ToDo Item 3
               4. ToDo Item 4
               5. ToDo Item 5
               6. ToDo Item 6
               7. ToDo Item 7
               8. ToDo Item 8
               9. ToDo Item 9
              10. Last
            Last change: insert [9]

            """,
          error: """
            error: the list is full: at most 10 items
            error: the list is full: at most 10 items

            """))
  }

  @Test func badCommandsOnTheListSayWhatIsAcceptedAndChangeNothing() async {
    #expect(
      await runScript(
        """
        frob
        delete
        delete x
        delete 1 2
        delete 0
        delete 3
        open
        open 9
        title x
        back
        Add
        render now
        delete 1
        delete 1
        delete 1
        open 1
        render
        """, arguments: ["todo", "--quiet"])
        == Transcript(
          status: 1,
          output: """
            To-do (0 of 10, add: enabled)
            Last change: remove [0]

            """,
          error: """
            error: unknown command 'frob'; on the list screen use: \(listUsage)
            error: delete needs a row number: delete N (1-2)
            error: 'x' is not a row number: delete N (1-2)
            error: '1 2' is not a row number: delete N (1-2)
            error: row 0 is out of range: rows 1-2
            error: row 3 is out of range: rows 1-2
            error: open needs a row number: open N (1-2)
            error: row 9 is out of range: rows 1-2
            error: 'title' is a detail command; on the list screen use: \(listUsage)
            error: 'back' is a detail command; on the list screen use: \(listUsage)
            error: unknown command 'Add'; on the list screen use: \(listUsage)
            error: render takes no argument, got 'now': use 'render' alone
            error: row 1 is out of range: the list is empty
            error: row 1 is out of range: the list is empty

            """))
  }

  @Test func badCommandsOnTheDetailSayWhatIsAcceptedAndChangeNothing() async {
    #expect(
      await runScript(
        """
        open 1
        add
        add x
        open 2
        delete 1
        title
        back now
        frob
        help me
        render
        """, arguments: ["todo", "--quiet"])
        == Transcript(
          status: 1,
          output: """
            To-do item
              Title: ToDo Item 1

            """,
          error: """
            error: 'add' is a list command; on the detail screen use: \(detailUsage)
            error: 'add' is a list command; on the detail screen use: \(detailUsage)
            error: 'open' is a list command; on the detail screen use: \(detailUsage)
            error: delete takes no argument, got '1': use 'delete' alone
            error: title needs the new title: title TEXT
            error: back takes no argument, got 'now': use 'back' alone
            error: unknown command 'frob'; on the detail screen use: \(detailUsage)
            error: help takes no argument, got 'me': use 'help' alone

            """))
  }

  @Test func aTitleIsKeptExactlyAndMayBeEmpty() async {
    // Spelled with \n: the trailing spaces are part of the test.
    #expect(
      await runScript(
        "open 1\ntitle  two  spaces \nback\nopen 2\ntitle \nback\nrender\n",
        arguments: ["todo", "--quiet"])
        == Transcript(
          status: 0,
          output: "To-do (2 of 10, add: enabled)\n"
            + "  1.  two  spaces \n"
            + "  2. \n"
            + "Last change: update [1]\n"))
  }

  @Test func filterShowsAllActiveOrCompletedAndRowNumbersAreTheRowsShown() async {
    #expect(
      await runScript(
        """
        toggle 1
        filter active
        render
        add c
        filter completed
        render
        open 1
        title A!
        back
        filter all
        wait 1s
        render
        filter x
        filter
        """, arguments: ["todo", "--quiet"])
        == Transcript(
          status: 1,
          output: """
            To-do (2 of 10, add: enabled), showing active
              1. ToDo Item 2
            Last change: update [0]

            To-do (3 of 10, add: enabled), showing completed
              1. ToDo Item 1 (done)
            Last change: insert [2]

            To-do (3 of 10, add: enabled)
              1. ToDo Item 2
              2. c
              3. A! (done)
            Last change: move [0->2]

            """,
          error: """
            error: 'x' is not a filter: use filter all, filter active or filter completed
            error: filter needs a filter: use filter all, filter active or filter completed

            """))
  }

  @Test func helpListsTheCommandsOfTheScreenShowing() async {
    #expect(
      await runScript(
        """
        help
        open 1
        help
        """, arguments: ["todo", "--quiet"])
        == Transcript(
          status: 0,
          output: """
            Commands on the list screen:
              add [TITLE]    add an item at the end; TITLE defaults to 'ToDo Item N' (at most 10)
              delete N       delete row N
              open N         show row N on the detail screen, to edit it
              edit N         open a sheet editing a draft of row N (done or cancel)
              toggle N       mark row N done or not; done items sort last 1s after
              filter WHICH   show all items, the active ones (not done), or the completed
              wait DURATION  let time pass (virtual in a script): 300ms, 1s
              refresh        take in the changes other processes saved to the --store database
              undo           take back the last change
              redo           make the change taken back last again
              render         print the screen
              graph [dot]    print the screen's live binding graph (dot: for Graphviz)
              trace on|off   print every step of the propagations of later commands
              help           print the commands of this screen
              quit           end the script

            Commands on the detail screen:
              title TEXT    set the title to everything after the first space
              delete        delete the item and go back to the list
              back          go back to the list
              undo          take back the last change
              redo          make the change taken back last again
              render        print the screen
              graph [dot]   print the screen's live binding graph (dot: for Graphviz)
              trace on|off  print every step of the propagations of later commands
              help          print the commands of this screen
              quit          end the script

            """))
  }

  @Test func editOpensASheetThatCancelLeavesAndDoneWritesInOneUndoStep() async {
    #expect(
      await runScript(
        """
        edit 2
        title Buy oat milk
        toggle
        render
        cancel
        render
        edit 2
        title Buy oat milk
        toggle
        done
        render
        undo
        render
        """, arguments: ["todo", "--quiet"])
        == Transcript(
          status: 0,
          output: """
            To-do (2 of 10, add: enabled)
              1. ToDo Item 1
              2. ToDo Item 2
            Last change: insert [1]

              Edit to-do item
                Title: Buy oat milk
                Done: yes
              [Cancel] [Done]

            To-do (2 of 10, add: enabled)
              1. ToDo Item 1
              2. ToDo Item 2
            Last change: insert [1]

            To-do (2 of 10, add: enabled)
              1. ToDo Item 1
              2. Buy oat milk (done)
            Last change: update [1]

            To-do (2 of 10, add: enabled)
              1. ToDo Item 1
              2. ToDo Item 2
            Last change: update [1]

            """))
  }

  @Test func theEditSheetTakesOnlyItsCommandsAndShowsControlCharactersVisibly() async {
    #expect(
      await runScript(
        """
        edit 3
        edit 1
        title \u{1B}[31mred\u{0D}X
        render
        undo
        back
        toggle 1
        done now
        title
        help
        cancel
        render
        """, arguments: ["todo", "--quiet"])
        == Transcript(
          status: 1,
          output: """
            To-do (2 of 10, add: enabled)
              1. ToDo Item 1
              2. ToDo Item 2
            Last change: insert [1]

              Edit to-do item
                Title: \\u{1B}[31mred\\u{0D}X
                Done: no
              [Cancel] [Done]

            Commands on the edit screen:
              title TEXT    set the draft's title to everything after the first space
              toggle        mark the draft done or not
              done          write the draft into the item (one undo step) and close the sheet
              cancel        close the sheet; the item stays as it was
              render        print the screen
              graph [dot]   print the screen's live binding graph (dot: for Graphviz)
              trace on|off  print every step of the propagations of later commands
              help          print the commands of this screen
              quit          end the script

            To-do (2 of 10, add: enabled)
              1. ToDo Item 1
              2. ToDo Item 2
            Last change: insert [1]

            """,
          error: """
            error: row 3 is out of range: rows 1-2
            error: 'undo' is a list command; on the edit screen use: \(sheetUsage)
            error: 'back' is a detail command; on the edit screen use: \(sheetUsage)
            error: toggle takes no argument, got '1': use 'toggle' alone
            error: done takes no argument, got 'now': use 'done' alone
            error: title needs the new title: title TEXT

            """))
  }
}
