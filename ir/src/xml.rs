//! XcodeML-like XML dump of the IR.
