//! The field path of a serde_json error, recovered from its position in
//! the text (issue 30: a plain serde_json parse instead of a tracked
//! deserializer, which costs the browser engine ~22 KB).
//!
//! serde_json gives an error's line and column: the last byte it consumed
//! (or, for an error it found by peeking, the byte it peeked). Walking the
//! text to that byte tells which value was being read, as the tracked
//! deserializer (serde_path_to_error) named it. The rules below follow
//! where serde_json is when each kind of error arises:
//! - a member's value is being read from its colon on (the whitespace after
//!   the colon too: a value of the wrong kind is refused before its first
//!   byte is consumed), up to its last byte; its key, and the whitespace
//!   before the colon, belong to the object (an unknown or repeated key is
//!   the object's error);
//! - an array element is being read from the byte after `[` or `,` up to
//!   its last byte, except at the end of the text (a list cut short is the
//!   list's error, not its next element's);
//! - a container's own brackets are its own (a missing field is reported
//!   at the closing brace).
//!
//! One kind of error breaks these rules: a data error of a value serde
//! reads whole before looking inside (an internally tagged enum, such as
//! `app`, `workload.skew` or an early scheduler's `mapping`). serde makes
//! it after serde_json has returned that value, so it carries no position;
//! serde_json gives it the position of the enclosing container at the end
//! of its own read, which has gone on past the value: over the whitespace
//! after it, a list's comma and the whitespace after that, or the closing
//! bracket. [`data_path`] tells such an error from the container's own by
//! parsing again with a comma put right after the value: an error made
//! before serde_json reads past the value is made again, word for word,
//! while one made later meets the extra comma first and becomes a syntax
//! error.
//!
//! Invariant: the walk never panics and stops at the error's byte; text
//! it cannot read as JSON gives the path of where it stopped.

use crate::locate::{element, member};

/// The field path serde was at for an error at 1-based `line` and the
/// byte count `column` into it (serde_json's convention), or at the end of
/// the text when `eof` (serde_json then says the text ended).
pub(crate) fn path_at(text: &str, line: usize, column: usize, eof: bool) -> String {
    let at = if eof {
        text.len()
    } else {
        error_byte(text, line, column)
    };
    walk(text.as_bytes(), at).0
}

/// The field path of a data error (a wrong type, a missing or unknown
/// field, a refused value) at `line` and `column` of `text`.
/// `made_again(t)` parses `t` as the text was parsed and says whether it
/// fails with the same data error (the same message).
///
/// While the error's byte lies after a value of the container it is in
/// (the whitespace, comma or closing bracket after it), the error is that
/// value's if a comma put right after the value leaves it as it is; then
/// the same question is asked at the value's own last byte (it may be an
/// error of its own last member in turn). The first value that fails the
/// test, or a byte after no value, gives the path.
pub(crate) fn data_path(
    text: &str,
    line: usize,
    column: usize,
    made_again: &dyn Fn(&str) -> bool,
) -> String {
    let mut at = error_byte(text, line, column);
    let mut text = text.to_string();
    loop {
        let (path, before) = walk(text.as_bytes(), at);
        // A value ends with an ASCII byte, so `end` is a char boundary.
        let Some(end) = before.filter(|&e| e > 0 && text.is_char_boundary(e)) else {
            return path;
        };
        text.insert(end, ',');
        if !made_again(&text) {
            return path;
        }
        at = end - 1;
    }
}

/// Byte offset of serde_json's error position (1-based `line`, `column`
/// bytes into it: the last byte consumed).
fn error_byte(text: &str, line: usize, column: usize) -> usize {
    (line_start(text.as_bytes(), line) + column).saturating_sub(1)
}

/// The path at byte `at` of `b`, and where the value before it ends
/// (exclusive), when `at` lies after a value of the container it is in.
fn walk(b: &[u8], at: usize) -> (String, Option<usize>) {
    let mut w = Walk {
        b,
        pos: 0,
        at,
        found: None,
        last: None,
        before: None,
    };
    let _ = w.value("", true, 0);
    (w.found.unwrap_or_default(), w.before)
}

/// Byte offset where 1-based `line` starts.
fn line_start(b: &[u8], line: usize) -> usize {
    if line <= 1 {
        return 0;
    }
    b.iter()
        .enumerate()
        .filter(|(_, &c)| c == b'\n')
        .nth(line - 2)
        .map_or(b.len(), |(i, _)| i + 1)
}

/// Deepest nesting walked (serde_json refuses deeper text anyway).
const MAX_DEPTH: usize = 256;

struct Walk<'t> {
    b: &'t [u8],
    pos: usize,
    at: usize,
    found: Option<String>,
    /// End (exclusive) of the last value read in the current container,
    /// until the next one starts (or, in an object, its comma is read).
    last: Option<usize>,
    /// `last` when the error's byte was reached.
    before: Option<usize>,
}

/// `Err` stops the walk: the error's byte was reached, or the text is not
/// JSON there.
type Step = Result<(), ()>;

impl Walk<'_> {
    /// The byte at the cursor, first noting `path` if it is the error's.
    fn peek(&mut self, path: &str) -> Result<u8, ()> {
        if self.pos >= self.at && self.found.is_none() {
            self.found = Some(path.to_string());
            self.before = self.last;
            return Err(());
        }
        self.b.get(self.pos).copied().ok_or(())
    }

    fn eat(&mut self, path: &str) -> Result<u8, ()> {
        let c = self.peek(path)?;
        self.pos += 1;
        Ok(c)
    }

    fn ws(&mut self, path: &str) -> Step {
        while matches!(self.peek(path)?, b' ' | b'\t' | b'\n' | b'\r') {
            self.pos += 1;
        }
        Ok(())
    }

    /// One value at `path`, leading whitespace included (`lead`: the
    /// whitespace is this value's).
    fn value(&mut self, path: &str, lead: bool, depth: usize) -> Step {
        self.last = None;
        if lead {
            self.ws(path)?;
        }
        match self.peek(path)? {
            b'{' if depth < MAX_DEPTH => self.object(path, depth),
            b'[' if depth < MAX_DEPTH => self.array(path, depth),
            b'"' => self.string(path).map(drop),
            _ => self.scalar(path),
        }
    }

    fn object(&mut self, path: &str, depth: usize) -> Step {
        self.eat(path)?;
        self.ws(path)?;
        if self.peek(path)? == b'}' {
            self.eat(path)?;
            return Ok(());
        }
        loop {
            self.ws(path)?;
            let key = self.string(path)?;
            self.ws(path)?;
            let child = member(path, &key);
            if self.peek(path)? != b':' {
                return Err(());
            }
            self.eat(&child)?;
            self.value(&child, true, depth + 1)?;
            self.last = Some(self.pos);
            self.ws(path)?;
            match self.eat(path)? {
                b',' => self.last = None,
                b'}' => return Ok(()),
                _ => return Err(()),
            }
        }
    }

    fn array(&mut self, path: &str, depth: usize) -> Step {
        self.eat(path)?;
        let mut i = 0;
        loop {
            // Before the element: its own bytes for an error found there,
            // the list's at the end of the text or when no element follows
            // (an empty list, a trailing comma).
            let child = if self.next_is_close() {
                path.to_string()
            } else {
                element(path, i)
            };
            while self.at_end_is_not(path)? {
                let c = self.peek(&child)?;
                if !matches!(c, b' ' | b'\t' | b'\n' | b'\r') {
                    break;
                }
                self.pos += 1;
            }
            if self.peek(path)? == b']' {
                self.eat(path)?;
                return Ok(());
            }
            self.value(&child, false, depth + 1)?;
            self.last = Some(self.pos);
            i += 1;
            self.ws(path)?;
            match self.eat(path)? {
                b',' => continue,
                b']' => return Ok(()),
                _ => return Err(()),
            }
        }
    }

    /// Whether only whitespace stands between the cursor and a `]` or the
    /// end of the text.
    fn next_is_close(&self) -> bool {
        let rest = &self.b[self.pos.min(self.b.len())..];
        match rest
            .iter()
            .find(|c| !matches!(c, b' ' | b'\t' | b'\n' | b'\r'))
        {
            None | Some(b']') => true,
            Some(_) => false,
        }
    }

    /// True while there is text left; at its end, the error (if it is
    /// there) is the list's.
    fn at_end_is_not(&mut self, path: &str) -> Result<bool, ()> {
        if self.pos >= self.b.len() {
            self.peek(path)?;
            return Err(());
        }
        Ok(true)
    }

    /// A string literal, decoded as serde_json decodes a key.
    fn string(&mut self, path: &str) -> Result<String, ()> {
        if self.eat(path)? != b'"' {
            return Err(());
        }
        let mut out = Vec::new();
        loop {
            match self.eat(path)? {
                b'"' => return Ok(String::from_utf8_lossy(&out).into_owned()),
                b'\\' => match self.eat(path)? {
                    b'n' => out.push(b'\n'),
                    b't' => out.push(b'\t'),
                    b'r' => out.push(b'\r'),
                    b'b' => out.push(8),
                    b'f' => out.push(12),
                    b'u' => {
                        let mut h = 0u32;
                        for _ in 0..4 {
                            let d = (self.eat(path)? as char).to_digit(16).ok_or(())?;
                            h = h * 16 + d;
                        }
                        let c = char::from_u32(h).unwrap_or('\u{fffd}');
                        out.extend_from_slice(c.to_string().as_bytes());
                    }
                    c => out.push(c),
                },
                c => out.push(c),
            }
        }
    }

    /// A number, `true`, `false` or `null`: its bytes are the value's; the
    /// byte after it is looked at without taking it (serde_json peeks it).
    fn scalar(&mut self, path: &str) -> Step {
        let start = self.pos;
        while let Some(&c) = self.b.get(self.pos) {
            if !(c.is_ascii_alphanumeric() || matches!(c, b'-' | b'+' | b'.')) {
                break;
            }
            self.peek(path)?;
            self.pos += 1;
        }
        if self.pos == start || !literal(&self.b[start..self.pos]) {
            // Not a whole value: serde_json takes the byte after it too
            // before it refuses it.
            self.peek(path)?;
            return Err(());
        }
        Ok(())
    }
}

/// A whole JSON literal: `true`, `false`, `null` or a number.
fn literal(t: &[u8]) -> bool {
    if matches!(t, b"true" | b"false" | b"null") {
        return true;
    }
    let t = t.strip_prefix(b"-").unwrap_or(t);
    let digits = |t: &[u8]| t.iter().take_while(|c| c.is_ascii_digit()).count();
    let n = digits(t);
    if n == 0 || (t[0] == b'0' && n > 1) {
        return false;
    }
    let mut t = &t[n..];
    if let Some(f) = t.strip_prefix(b".") {
        let n = digits(f);
        if n == 0 {
            return false;
        }
        t = &f[n..];
    }
    if let Some(e) = t.strip_prefix(b"e").or_else(|| t.strip_prefix(b"E")) {
        let e = e
            .strip_prefix(b"+")
            .or_else(|| e.strip_prefix(b"-"))
            .unwrap_or(e);
        let n = digits(e);
        if n == 0 {
            return false;
        }
        t = &e[n..];
    }
    t.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::{parse_located, serde_diagnostic};
    use crate::{Diagnostic, Scenario};
    use serde::de::DeserializeOwned;
    use serde::Deserialize;
    use serde_json::{json, Value};

    /// The tracked parse's path of the error in `text` (read as any JSON
    /// value) and this module's.
    fn both(text: &str) -> (String, String) {
        let mut de = serde_json::Deserializer::from_str(text);
        let e = serde_path_to_error::deserialize::<_, Value>(&mut de).unwrap_err();
        let old = tracked_path(e.path());
        let e = e.into_inner();
        (old, path_at(text, e.line(), e.column(), e.is_eof()))
    }

    fn tracked_path(p: &serde_path_to_error::Path) -> String {
        use serde_path_to_error::Segment;
        let mut path = String::new();
        for seg in p.iter() {
            match seg {
                Segment::Seq { index } => path = element(&path, *index),
                Segment::Map { key } => path = member(&path, key),
                Segment::Enum { .. } | Segment::Unknown => {}
            }
        }
        path
    }

    #[test]
    fn syntax_errors_are_placed_where_the_tracked_parse_placed_them() {
        for text in [
            "{\"a\": {\"b\": tru}}",
            "{\"a\": {\"b\": 1.}}",
            "{\"a\": [1, x]}",
            "{\"a\": [1, ]}",
            "{\"a\": [1, ",
            "{\"a\": [",
            "{\"a\": ",
            "{\"a\":",
            "{\"a\"",
            "{\"a\": 1",
            "{\"a\": 1,}",
            "{\"a\" 1}",
            "{\"a\": \"x",
            "[{\"a\": [[1, 2], [3,",
        ] {
            let (old, new) = both(text);
            assert_eq!(new, old, "{text}");
        }
    }

    /// The diagnostic of the tracked parse this module replaces
    /// (serde_path_to_error), kept here as the reference.
    fn tracked<T: DeserializeOwned>(text: &str) -> Option<Diagnostic> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut de = serde_json::Deserializer::from_str(text);
        let e = serde_path_to_error::deserialize::<_, T>(&mut de).err()?;
        let path = tracked_path(e.path());
        Some(serde_diagnostic(text, "s.json", path, e.into_inner()))
    }

    fn plain<T: DeserializeOwned>(text: &str) -> Option<Diagnostic> {
        parse_located::<T>(text, "s.json").err()
    }

    /// Internally tagged values, read whole by serde, nested as the
    /// scenario nests them: last or not in an object, in a list.
    #[derive(Debug, Deserialize)]
    #[serde(tag = "kind", deny_unknown_fields)]
    #[allow(dead_code)] // read by the parse only
    enum Tagged {
        A { n: u32 },
        B,
    }

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Inner {
        x: Option<u32>,
        t: Option<Tagged>,
    }

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Outer {
        first: u32,
        inner: Inner,
        list: Vec<Tagged>,
    }

    #[test]
    fn errors_of_values_read_whole_are_placed_where_the_tracked_parse_placed_them() {
        let ok_list = r#""list": [{"kind": "B"}]"#;
        for text in [
            // The tagged value last in its object, then followed by a member.
            format!(r#"{{"first": 1, "inner": {{"t": {{"kind": "A", "n": "x"}}}}, {ok_list}}}"#),
            format!(r#"{{"first": 1, "inner": {{"t": {{"kind": "A"}}  }}, {ok_list}}}"#),
            format!(r#"{{"first": 1, "inner": {{"t": {{"kind": "A"}} , "x": 1}}, {ok_list}}}"#),
            format!(r#"{{"first": 1, "inner": {{"t": {{"kind": "A", "n": 1, "z": 0}}, "x": 1}}, {ok_list}}}"#),
            format!(r#"{{"first": 1, {ok_list}, "inner": {{"x": 2, "t": {{"kind": "C"}}}}}}"#),
            format!("{{\"first\": 1, {ok_list}, \"inner\": {{\"t\": {{}}\n}}\n}}"),
            // In a list: first, middle and last element, any spacing.
            r#"{"first": 1, "inner": {}, "list": [{"kind": "A"}, {"kind": "B"}]}"#.into(),
            r#"{"first": 1, "inner": {}, "list": [{"kind": "B"} ,  {"kind": "Q"}, {"kind": "B"}]}"#.into(),
            "{\"first\": 1, \"inner\": {}, \"list\": [\n {\"kind\": \"B\"},\n {\"kind\": \"A\", \"n\": -1}\n ]\n}".into(),
            // The container's own errors at its closing bracket.
            r#"{"first": 1, "inner": {"t": {"kind": "B"}}}"#.into(),
            r#"{"first": 1, "list": [], "inner": {"t": {"kind": "B"}, "x": "y"}}"#.into(),
            r#"{"first": 1, "list": [{"kind": "B"}], "inner": {"x": 1}, "first": 2}"#.into(),
        ] {
            let (old, new) = (tracked::<Outer>(&text), plain::<Outer>(&text));
            assert!(old.is_some(), "{text}");
            assert_eq!(new, old, "{text}");
        }
    }

    /// Every path of `v` with the value there.
    fn paths(v: &Value, at: &mut Vec<Vec<PathStep>>, here: Vec<PathStep>) {
        at.push(here.clone());
        match v {
            Value::Object(m) => {
                for (k, c) in m {
                    let mut p = here.clone();
                    p.push(PathStep::Key(k.clone()));
                    paths(c, at, p);
                }
            }
            Value::Array(a) => {
                for (i, c) in a.iter().enumerate() {
                    let mut p = here.clone();
                    p.push(PathStep::Index(i));
                    paths(c, at, p);
                }
            }
            _ => {}
        }
    }

    #[derive(Clone)]
    enum PathStep {
        Key(String),
        Index(usize),
    }

    fn get_mut<'v>(v: &'v mut Value, p: &[PathStep]) -> &'v mut Value {
        p.iter().fold(v, |v, s| match s {
            PathStep::Key(k) => &mut v[k.as_str()],
            PathStep::Index(i) => &mut v[*i],
        })
    }

    /// `p` written as a field path.
    fn show(p: &[PathStep]) -> String {
        p.iter().fold(String::new(), |s, step| match step {
            PathStep::Key(k) => member(&s, k),
            PathStep::Index(i) => element(&s, *i),
        })
    }

    /// The mutations of one shipped scenario, each with what it did (to
    /// name it when it fails): at every value a wrong kind (string,
    /// number, object, list, bad tag), every member deleted, an unknown
    /// member in every object; then the text cut short and a byte dropped
    /// at many places (syntax errors).
    fn mutants(text: &str) -> Vec<(String, String)> {
        let doc: Value = serde_json::from_str(text).unwrap();
        let mut all = Vec::new();
        paths(&doc, &mut all, Vec::new());
        let mut out = Vec::new();
        let pretty = |d: &Value| serde_json::to_string_pretty(d).unwrap();
        let wrong = [
            json!("bogus"),
            json!(7),
            json!(-1),
            json!(1.5),
            json!({}),
            json!([]),
            json!(null),
            json!(true),
        ];
        for p in &all {
            for w in &wrong {
                let mut d = doc.clone();
                *get_mut(&mut d, p) = w.clone();
                out.push((format!("`{}` set to {w}", show(p)), pretty(&d)));
            }
            let mut d = doc.clone();
            if let Some(PathStep::Key(k)) = p.last() {
                if let Value::Object(m) = get_mut(&mut d, &p[..p.len() - 1]) {
                    m.remove(k);
                }
                out.push((format!("`{}` deleted", show(p)), pretty(&d)));
            }
            if get_mut(&mut doc.clone(), p).is_object() {
                for (k, v) in [("zz_unknown", json!(1)), ("kind", json!("no-such-kind"))] {
                    let mut d = doc.clone();
                    get_mut(&mut d, p)[k] = v.clone();
                    let what = format!("`{}` given {k}: {v}", show(p));
                    // Also without whitespace: serde_json then stops right
                    // on a bracket or comma after the value.
                    out.push((format!("{what}, compact"), d.to_string()));
                    out.push((what, pretty(&d)));
                }
            }
        }
        for cut in (0..text.len()).step_by(23) {
            if text.is_char_boundary(cut) {
                out.push((format!("cut at byte {cut}"), text[..cut].to_string()));
                let mut dropped = text.to_string();
                if text.is_char_boundary(cut + 1) {
                    dropped.remove(cut);
                    out.push((format!("byte {cut} dropped"), dropped));
                }
            }
        }
        out
    }

    /// Issue 30: the plain parse locates every error of every mutated
    /// shipped scenario exactly as the tracked parse did (file, line,
    /// column, field path and message).
    #[test]
    fn every_mutated_scenario_is_located_as_the_tracked_parse_did() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../scenarios");
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect();
        files.sort();
        assert!(files.len() > 10, "shipped scenarios not found in {dir}");
        let (mut compared, mut differ, mut shown) = (0, 0, Vec::new());
        for f in &files {
            let text = std::fs::read_to_string(f).unwrap();
            for (i, (what, m)) in mutants(&text).into_iter().enumerate() {
                let (old, new) = (tracked::<Scenario>(&m), plain::<Scenario>(&m));
                compared += usize::from(old.is_some());
                if old != new {
                    differ += 1;
                    if shown.len() < 20 {
                        shown.push(format!(
                            "{} mutant {i} ({what}):\n  old {old:?}\n  new {new:?}",
                            f.display()
                        ));
                    }
                }
            }
        }
        assert!(compared > 1000, "only {compared} errors compared");
        println!("{compared} located errors compared, {differ} differ");
        assert!(
            differ == 0,
            "{differ} of {compared} located errors differ (first {}):\n{}",
            shown.len(),
            shown.join("\n")
        );
    }
}
