//! `loop` nests: which loop of the nest runs over which template dimension, found on
//! the IR (never on printed text).
