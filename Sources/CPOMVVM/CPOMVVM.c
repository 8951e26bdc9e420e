// The helpers are inline, in the header; this file makes the target a C
// target that SwiftPM builds.
#include "CPOMVVM.h"
