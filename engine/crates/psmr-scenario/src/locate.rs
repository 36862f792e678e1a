//! A small JSON locator: one pass over the source text maps the field path
//! of every value (`schedulers[1].id`, `workload.writes`) to the line and
//! column where the value starts, and where its key starts.
//!
//! serde_json locates syntax and type errors itself; the locator places the
//! semantic errors found after parsing. It is tolerant: on malformed text it
//! stops and keeps what it found, and it never panics. Nesting deeper than
//! [`MAX_DEPTH`] is not descended into (serde_json refuses such text anyway).

use std::collections::HashMap;

/// Deepest nesting the locator descends into.
pub const MAX_DEPTH: usize = 128;

/// 1-based line and column.
pub type Pos = (usize, usize);

/// Where each value of a JSON document is.
#[derive(Clone, Debug, Default)]
pub struct Locator {
    values: HashMap<String, Pos>,
    keys: HashMap<String, Pos>,
    /// Where a key first appears again in the same object.
    repeats: HashMap<String, Pos>,
}

impl Locator {
    /// Scan `text` once.
    pub fn new(text: &str) -> Self {
        let mut s = Scanner {
            chars: text.chars().peekable(),
            line: 1,
            col: 1,
            out: Locator::default(),
        };
        s.value(String::new(), 0);
        s.out
    }

    /// Position of the value at `path` (`""` is the whole document).
    pub fn value(&self, path: &str) -> Option<Pos> {
        self.values.get(path).copied()
    }

    /// Position of the key of the member at `path`.
    pub fn key(&self, path: &str) -> Option<Pos> {
        self.keys.get(path).copied()
    }

    /// Position of the second occurrence of the key of the member at `path`
    /// (a duplicate key), if its object repeats it.
    pub fn repeated_key(&self, path: &str) -> Option<Pos> {
        self.repeats.get(path).copied()
    }

    /// Position of the value at `path`, or of its closest located ancestor,
    /// or the start of the file.
    pub fn nearest(&self, path: &str) -> Pos {
        let mut p = path;
        loop {
            if let Some(pos) = self.value(p) {
                return pos;
            }
            match parent(p) {
                Some(up) => p = up,
                None => return (1, 1),
            }
        }
    }
}

/// `a.b[2]` -> `a.b`, `a.b` -> `a`, `a` -> ``, `` -> None.
pub fn parent(path: &str) -> Option<&str> {
    if path.is_empty() {
        return None;
    }
    let cut = path.rfind(['.', '[']).unwrap_or(0);
    Some(&path[..cut])
}

/// Path of member `key` of the object at `path`.
pub fn member(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

/// Path of element `i` of the array at `path`.
pub fn element(path: &str, i: usize) -> String {
    format!("{path}[{i}]")
}

struct Scanner<'t> {
    chars: std::iter::Peekable<std::str::Chars<'t>>,
    line: usize,
    col: usize,
    out: Locator,
}

impl Scanner<'_> {
    fn bump(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        if c == '\n' {
            self.line += 1;
            self.col = 1;
        } else {
            self.col += 1;
        }
        Some(c)
    }

    fn skip_ws(&mut self) {
        while matches!(self.chars.peek(), Some(' ' | '\t' | '\n' | '\r')) {
            self.bump();
        }
    }

    /// Scan one value at `path`. Returns false when the text is malformed
    /// (the caller then stops).
    fn value(&mut self, path: String, depth: usize) -> bool {
        self.skip_ws();
        let pos = (self.line, self.col);
        let Some(&c) = self.chars.peek() else {
            return false;
        };
        self.out.values.entry(path.clone()).or_insert(pos);
        if depth >= MAX_DEPTH && matches!(c, '{' | '[') {
            return false;
        }
        match c {
            '{' => self.object(&path, depth),
            '[' => self.array(&path, depth),
            '"' => self.string().is_some(),
            _ => self.scalar(),
        }
    }

    fn object(&mut self, path: &str, depth: usize) -> bool {
        self.bump();
        self.skip_ws();
        if self.chars.peek() == Some(&'}') {
            self.bump();
            return true;
        }
        loop {
            self.skip_ws();
            let key_pos = (self.line, self.col);
            let Some(key) = self.string() else {
                return false;
            };
            let child = member(path, &key);
            if self.out.keys.contains_key(&child) {
                self.out.repeats.entry(child.clone()).or_insert(key_pos);
            }
            self.out.keys.entry(child.clone()).or_insert(key_pos);
            self.skip_ws();
            if self.bump() != Some(':') || !self.value(child, depth + 1) {
                return false;
            }
            self.skip_ws();
            match self.bump() {
                Some(',') => continue,
                Some('}') => return true,
                _ => return false,
            }
        }
    }

    fn array(&mut self, path: &str, depth: usize) -> bool {
        self.bump();
        self.skip_ws();
        if self.chars.peek() == Some(&']') {
            self.bump();
            return true;
        }
        let mut i = 0;
        loop {
            if !self.value(element(path, i), depth + 1) {
                return false;
            }
            i += 1;
            self.skip_ws();
            match self.bump() {
                Some(',') => continue,
                Some(']') => return true,
                _ => return false,
            }
        }
    }

    /// A string literal; escapes are decoded only as far as keys need
    /// (`\"` and `\\`; other escapes keep their letter).
    fn string(&mut self) -> Option<String> {
        if self.bump() != Some('"') {
            return None;
        }
        let mut s = String::new();
        loop {
            match self.bump()? {
                '"' => return Some(s),
                '\\' => s.push(self.bump()?),
                c => s.push(c),
            }
        }
    }

    fn scalar(&mut self) -> bool {
        let mut any = false;
        while let Some(&c) = self.chars.peek() {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '+' | '.') {
                any = true;
                self.bump();
            } else {
                break;
            }
        }
        any
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = "{\n  \"name\": \"x\",\n  \"schedulers\": [\n    {\"id\": \"early\"},\n    {\"id\": \"late\", \"label\": \"l\"}\n  ],\n  \"w\": {\"a\": [1, 2.5e3]}\n}";

    #[test]
    fn maps_paths_to_value_positions() {
        let l = Locator::new(DOC);
        assert_eq!(l.value(""), Some((1, 1)));
        assert_eq!(l.value("name"), Some((2, 11)));
        assert_eq!(l.key("name"), Some((2, 3)));
        assert_eq!(l.value("schedulers[0]"), Some((4, 5)));
        assert_eq!(l.value("schedulers[1].label"), Some((5, 29)));
        assert_eq!(l.value("w.a[1]"), Some((7, 18)));
        assert_eq!(l.value("w.b"), None);
        assert_eq!(l.nearest("w.b.c"), (7, 8));
        assert_eq!(l.nearest("zzz"), (1, 1));
    }

    #[test]
    fn a_repeated_key_is_located_at_its_second_occurrence() {
        let l = Locator::new("{\n  \"a\": 1,\n  \"w\": {\"b\": 2,\n    \"b\": 3}}");
        assert_eq!(l.key("w.b"), Some((3, 9)));
        assert_eq!(l.repeated_key("w.b"), Some((4, 5)));
        assert_eq!(l.repeated_key("a"), None);
    }

    #[test]
    fn parents() {
        assert_eq!(parent("a.b[2]"), Some("a.b"));
        assert_eq!(parent("a.b"), Some("a"));
        assert_eq!(parent("a"), Some(""));
        assert_eq!(parent(""), None);
    }

    #[test]
    fn malformed_text_keeps_what_was_found() {
        let l = Locator::new("{\"a\": 1, \"b\": [tru");
        assert_eq!(l.value("a"), Some((1, 7)));
        assert_eq!(l.value("b[0]"), Some((1, 16)));
        let deep = "[".repeat(10_000);
        let _ = Locator::new(&deep);
    }
}
