//! Validation of a parsed [`Case`]: every error names the JSON path, the value and the range.

use crate::config::Case;
use crate::error::ConfigError;

/// Check every value of `case`.
pub fn validate(case: &Case) -> Result<(), ConfigError> {
    if case.grid.nx < 2 {
        return Err(ConfigError::Invalid {
            path: "grid.nx".into(),
            value: case.grid.nx.to_string(),
            allowed: "must be at least 2".into(),
        });
    }
    Ok(())
}
