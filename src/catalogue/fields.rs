//! Reading a claim's TOML fields, with errors that name the claim and the
//! field.

use super::CatalogueError;

/// Field access with errors that name the claim and the field.
pub(super) struct Fields {
    pub(super) who: String,
}

impl Fields {
    /// Fields of the claim described as `who` in errors.
    pub(super) fn new(who: String) -> Fields {
        Fields { who }
    }
    pub(super) fn err(&self, field: &'static str, message: impl Into<String>) -> CatalogueError {
        CatalogueError::Field { claim: self.who.clone(), field, message: message.into() }
    }
    pub(super) fn string(&self, field: &'static str, v: Option<toml::Value>) -> Result<Option<String>, CatalogueError> {
        match v {
            None => Ok(None),
            Some(toml::Value::String(s)) => {
                if s.trim().is_empty() {
                    Err(self.err(field, "is empty"))
                } else {
                    Ok(Some(s))
                }
            }
            Some(other) => Err(self.err(field, format!("must be a string, not {}", type_name(&other)))),
        }
    }
    pub(super) fn required(&self, field: &'static str, v: Option<toml::Value>) -> Result<String, CatalogueError> {
        self.string(field, v)?.ok_or_else(|| self.err(field, "is missing"))
    }
    pub(super) fn boolean(&self, field: &'static str, v: Option<toml::Value>) -> Result<Option<bool>, CatalogueError> {
        match v {
            None => Ok(None),
            Some(toml::Value::Boolean(b)) => Ok(Some(b)),
            Some(other) => Err(self.err(field, format!("must be true or false, not {}", type_name(&other)))),
        }
    }
}

/// How an error names the TOML type of a value it did not expect.
pub(super) fn type_name(v: &toml::Value) -> &'static str {
    match v {
        toml::Value::String(_) => "a string",
        toml::Value::Integer(_) => "an integer",
        toml::Value::Float(_) => "a float",
        toml::Value::Boolean(_) => "a boolean",
        toml::Value::Datetime(_) => "a date",
        toml::Value::Array(_) => "an array",
        toml::Value::Table(_) => "a table",
    }
}
