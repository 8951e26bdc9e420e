// Importing POMVVMTesting also imports POMVVM: every check takes and returns
// the kit's types, so a test file needs a single import to call them.
@_exported import POMVVM
