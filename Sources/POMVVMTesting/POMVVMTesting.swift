@_exported import POMVVM
