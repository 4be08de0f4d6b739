//! Count files: a corpus's distinct chunks with their counts, written by
//! `bpeek count`, merged by `bpeek count --merge` and trained on by
//! `bpeek train --counts`, as Parquet (with the `parquet` feature) or as
//! tab-separated text.

pub mod count_edges;
pub mod count_file;
pub mod count_merge;
pub mod count_rows;
#[cfg(feature = "parquet")]
pub mod parquet_pages;
