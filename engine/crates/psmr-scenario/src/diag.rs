//! Located diagnostics: every problem found in a scenario names the file,
//! the line and column of the offending value, and its field path.

use std::fmt;

use serde::{Deserialize, Serialize};

/// One problem with a scenario, located in its source text.
///
/// Invariant: `line >= 1` and `col >= 1` (both 1-based), also for problems
/// that have no better place than the start of the file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Diagnostic {
    pub file: String,
    pub line: usize,
    pub col: usize,
    /// Field path in the scenario, e.g. `schedulers[1].id` or
    /// `workload.writes`; empty for the whole document.
    pub path: String,
    /// What is wrong, and what was expected.
    pub message: String,
}

impl Diagnostic {
    pub fn new(file: &str, (line, col): (usize, usize), path: &str, message: String) -> Self {
        Diagnostic {
            file: file.to_string(),
            line: line.max(1),
            col: col.max(1),
            path: path.to_string(),
            message,
        }
    }
}

impl fmt::Display for Diagnostic {
    /// `FILE:LINE:COL: field.path: message` (the path part is left out for
    /// problems of the whole document).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}: ", self.file, self.line, self.col)?;
        if !self.path.is_empty() {
            write!(f, "{}: ", self.path)?;
        }
        f.write_str(&self.message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_is_file_line_col_path_message() {
        let d = Diagnostic::new("a.json", (3, 7), "workload.writes", "too big".into());
        assert_eq!(d.to_string(), "a.json:3:7: workload.writes: too big");
        let d = Diagnostic::new("a.json", (0, 0), "", "empty".into());
        assert_eq!(d.to_string(), "a.json:1:1: empty");
    }
}
