//! Interconnect simulator.
