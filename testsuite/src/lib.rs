//! Test-suite helpers.
