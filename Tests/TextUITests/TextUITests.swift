// Replaced by the sample app issue.
