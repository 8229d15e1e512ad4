//! Profile data model and reports.
