// Replaced by the sample app issue: the app and its modes.
