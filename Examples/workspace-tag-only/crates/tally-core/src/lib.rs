//! Running statistics per station, as in the One Billion Row Challenge.

use std::collections::BTreeMap;

/// Min, max, sum and count of one station's readings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Stats {
    pub min: f64,
    pub max: f64,
    pub sum: f64,
    pub count: u64,
}

impl Stats {
    fn new(value: f64) -> Self {
        Stats { min: value, max: value, sum: value, count: 1 }
    }

    fn add(&mut self, value: f64) {
        self.min = self.min.min(value);
        self.max = self.max.max(value);
        self.sum += value;
        self.count += 1;
    }

    pub fn mean(&self) -> f64 {
        self.sum / self.count as f64
    }
}

/// Reads `station;value` lines; a line without a number is skipped (NULL handling).
pub fn tally<'a>(lines: impl Iterator<Item = &'a str>) -> BTreeMap<String, Stats> {
    let mut stations: BTreeMap<String, Stats> = BTreeMap::new();
    for line in lines {
        let Some((name, value)) = line.split_once(';') else { continue };
        let Ok(value) = value.trim().parse::<f64>() else { continue };
        stations
            .entry(name.to_string())
            .and_modify(|stats| stats.add(value))
            .or_insert_with(|| Stats::new(value));
    }
    stations
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skips_null_readings() {
        let result = tally(["Oslo;1.5", "Oslo;NULL", "Oslo;-0.5"].into_iter());
        assert_eq!(result["Oslo"].count, 2);
        assert_eq!(result["Oslo"].mean(), 0.5);
    }
}
