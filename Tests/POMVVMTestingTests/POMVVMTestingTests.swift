// Replaced by the conformance suites issue.
