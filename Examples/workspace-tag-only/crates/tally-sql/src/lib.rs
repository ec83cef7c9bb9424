//! `SELECT station, MIN(value), AVG(value), MAX(value) GROUP BY station`, and nothing else.

use tally_core::Stats;

/// The only query tally-sql understands, parsed from text.
#[derive(Debug, PartialEq)]
pub enum Query {
    /// Every station with min/mean/max.
    Summary,
    /// One station.
    Station(String),
}

pub fn parse(sql: &str) -> Option<Query> {
    let words: Vec<&str> = sql.split_whitespace().collect();
    match words.as_slice() {
        ["SELECT", "*"] => Some(Query::Summary),
        ["SELECT", "*", "WHERE", "station", "=", name] => Some(Query::Station(name.trim_matches('\'').to_string())),
        _ => None,
    }
}

pub fn render(name: &str, stats: &Stats) -> String {
    format!("{name}={:.1}/{:.1}/{:.1}", stats.min, stats.mean(), stats.max)
}
