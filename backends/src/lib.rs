//! Emitters.
