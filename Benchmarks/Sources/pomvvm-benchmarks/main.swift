let settings = Settings.parse(CommandLine.arguments)
MainActor.assumeIsolated {
  var report = Report()
  if settings.wants("cells") {
    runCellBenchmarks(settings, &report)
  }
  if settings.wants("arrays") {
    runArrayBenchmarks(settings, &report)
  }
  report.print()
}
