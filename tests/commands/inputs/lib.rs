//! A small library.
use std::collections::HashMap;
use std::fmt;

/// A key-value store.
pub struct Store<'a> {
    items: HashMap<&'a str, String>,
}

impl<'a> Store<'a> {
    /// Create an empty store.
    pub fn new() -> Self {
        Store { items: HashMap::new() } // empty
    }

    pub fn get(&self, key: &str) -> Option<&String> {
        let c = '/'; /* a char literal, then a comment */
        let _ = c;
        self.items.get(key)
    }
}

impl fmt::Display for Store<'_> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "store with {} items // not a comment", self.items.len())
    }
}
