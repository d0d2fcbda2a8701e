//! The forces and probes CSV files written next to an output (`src/io/csv.rs`): a header
//! line of column names, then comma-separated values; one column (`body` or `probe`) names
//! the series a line belongs to.

use std::path::Path;

use super::PlotError;

/// A CSV table: column names and rows of fields.
#[derive(Debug, Clone)]
pub struct Table {
    /// The file (for messages and titles).
    pub path: String,
    /// Column names.
    pub header: Vec<String>,
    /// Rows, each with `header.len()` fields.
    pub rows: Vec<Vec<String>>,
}

impl Table {
    /// Read `path`; every line must have as many fields as the header.
    pub fn read(path: &Path) -> Result<Table, PlotError> {
        let shown = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| PlotError::Csv {
            path: shown.clone(),
            message: e.to_string(),
        })?;
        let mut lines = text.lines().filter(|l| !l.trim().is_empty());
        let header: Vec<String> = lines
            .next()
            .ok_or_else(|| PlotError::Csv {
                path: shown.clone(),
                message: "empty file".into(),
            })?
            .split(',')
            .map(|s| s.trim().to_string())
            .collect();
        let mut rows = Vec::new();
        for (k, line) in lines.enumerate() {
            let row: Vec<String> = line.split(',').map(|s| s.trim().to_string()).collect();
            if row.len() != header.len() {
                return Err(PlotError::Csv {
                    path: shown,
                    message: format!(
                        "line {}: {} fields, the header has {}",
                        k + 2,
                        row.len(),
                        header.len()
                    ),
                });
            }
            rows.push(row);
        }
        Ok(Table {
            path: shown,
            header,
            rows,
        })
    }

    /// Index of column `name`.
    pub fn column(&self, name: &str) -> Option<usize> {
        self.header.iter().position(|h| h == name)
    }

    /// For each distinct value of column `key` (in order of first appearance): the points
    /// (column `x`, column `y`) of its rows; unparsable numbers are left out.
    pub fn grouped(&self, key: usize, x: usize, y: usize) -> Vec<(String, Vec<(f64, f64)>)> {
        let mut groups: Vec<(String, Vec<(f64, f64)>)> = Vec::new();
        for row in &self.rows {
            let (Ok(xv), Ok(yv)) = (row[x].parse::<f64>(), row[y].parse::<f64>()) else {
                continue;
            };
            match groups.iter_mut().find(|g| g.0 == row[key]) {
                Some(g) => g.1.push((xv, yv)),
                None => groups.push((row[key].clone(), vec![(xv, yv)])),
            }
        }
        groups
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_by_key_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.forces.csv");
        std::fs::write(
            &p,
            "step,time,body,Cd\n1,1e-2,b,2e0\n1,1e-2,a,3\n2,2e-2,b,4\n",
        )
        .unwrap();
        let t = Table::read(&p).unwrap();
        let g = t.grouped(2, 1, 3);
        assert_eq!(g[0].0, "b");
        assert_eq!(g[0].1, vec![(0.01, 2.0), (0.02, 4.0)]);
        assert_eq!(g[1].1, vec![(0.01, 3.0)]);
        std::fs::write(&p, "step,time\n1\n").unwrap();
        let e = Table::read(&p).unwrap_err().to_string();
        assert!(e.contains("line 2: 1 fields"), "{e}");
    }
}
