pub mod weight;
