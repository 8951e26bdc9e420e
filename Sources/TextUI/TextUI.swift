// Replaced by the sample app issue: terminal primitives.
