import DemoApp

// The app lives in the DemoApp library, shared with its tests.
await DemoApp.main()
