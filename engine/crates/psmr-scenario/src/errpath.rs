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
//!   byte is consumed, so at the colon when no space follows it), up to its
//!   last byte; its key, and the whitespace before the colon, belong to the
//!   object (a repeated key is the object's error; an unknown field is
//!   named by its key's path, as the tracked parse named it);
//! - an array element is being read from the byte after `[` or `,` up to
//!   its last byte, except at the end of the text (a list cut short is the
//!   list's error, not its next element's); in a data error the `[` or `,`
//!   itself is the next element's (an element of the wrong kind right
//!   after it);
//! - a number or literal is read as serde_json reads it: the byte it
//!   refuses is the value's, the byte after a whole value the container's
//!   (`0null` is a number and then a byte no object takes);
//! - a container's own brackets are its own (a missing field is reported
//!   at the closing brace);
//! - an externally tagged unit variant written as an object's key
//!   (`{"early": 1}` for a scheduler id) is refused at its value, which the
//!   tracked parse named by the enum's path: the object's.
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
    walk(text.as_bytes(), at, false).path
}

/// The field path of a data error (a wrong type, a missing or unknown
/// field, a refused value) at `line` and `column` of `text`, whose
/// `message` (without its position) tells two kinds apart: an unknown
/// field, refused on its key, and a value of the wrong kind where a unit
/// variant's `null` is expected (a variant written as an object's key,
/// `{"early": {}}` for a scheduler id), which the tracked parse placed at
/// the enum, the object.
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
    (line, column): (usize, usize),
    message: &str,
    made_again: &dyn Fn(&str) -> bool,
) -> String {
    let mut at = error_byte(text, line, column);
    if line_start(text.as_bytes(), line) + column == 0 {
        // Nothing taken: the document itself is of the wrong kind.
        return String::new();
    }
    let mut text = text.to_string();
    loop {
        let Found {
            path,
            before,
            key,
            owner,
        } = walk(text.as_bytes(), at, true);
        if let Some(owner) = owner.filter(|_| message.ends_with("expected unit")) {
            return owner;
        }
        // An unknown field is refused on its key: the tracked parse named
        // the key's path (and the object's for any other error there, such
        // as an unknown variant written as a key).
        if let Some(key) = key.filter(|_| message.starts_with("unknown field `")) {
            return member(&path, &key);
        }
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

/// What the walk found at the error's byte.
struct Found {
    /// The field path there.
    path: String,
    /// Where the value before the byte ends (exclusive), when the byte
    /// lies after a value of the container it is in.
    before: Option<usize>,
    /// The key, when the byte is in an object's key.
    key: Option<String>,
    /// The object, when the byte is in one of its members' values (the
    /// colon on), not inside a list there.
    owner: Option<String>,
}

/// What is at byte `at` of `b`; `data`: for a data error (see
/// [`Walk::data`]).
fn walk(b: &[u8], at: usize, data: bool) -> Found {
    let mut w = Walk {
        b,
        pos: 0,
        at,
        data,
        found: None,
        last: None,
        before: None,
        key_at: None,
        owner: None,
    };
    let _ = w.value("", true, 0);
    let key = w.key_at.and_then(|start| {
        let mut k = Walk {
            pos: start,
            at: usize::MAX,
            ..walk_over(b)
        };
        k.string("").ok()
    });
    Found {
        path: w.found.unwrap_or_default(),
        before: w.before,
        key,
        owner: w.owner,
    }
}

/// A walk over `b` that stops nowhere.
fn walk_over(b: &[u8]) -> Walk<'_> {
    Walk {
        b,
        pos: 0,
        at: usize::MAX,
        data: false,
        found: None,
        last: None,
        before: None,
        key_at: None,
        owner: None,
    }
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
    /// A data error: serde_json refuses a value of the wrong kind (an
    /// object or list where another is expected) at the byte it took last
    /// before it, which for a list's element is the list's `[` or `,`.
    data: bool,
    found: Option<String>,
    /// Where the key being read starts, when the error's byte is in it.
    key_at: Option<usize>,
    /// The object whose member's value is being read (see [`Found`]).
    owner: Option<String>,
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

    /// Whitespace, each byte `path`'s; the byte after it is left to the
    /// caller (whose it is depends on what it is).
    fn ws(&mut self, path: &str) -> Step {
        while matches!(self.b.get(self.pos), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.eat(path)?;
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
        // Each reader takes (and so notes) its first byte itself: a list's
        // `[` may be its first element's (`separator`).
        match self.b.get(self.pos) {
            Some(b'{') if depth < MAX_DEPTH => self.object(path, depth),
            Some(b'[') if depth < MAX_DEPTH => self.array(path, depth),
            Some(b'"') => self.string(path).map(drop),
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
            let start = self.pos;
            // The key and the whitespace after it: where serde_json
            // refuses an unknown field (after the whitespace it skipped).
            let key = self
                .string(path)
                .and_then(|key| self.ws(path).map(|()| key));
            let Ok(key) = key else {
                if self.found.is_some() {
                    self.key_at = Some(start);
                }
                return Err(());
            };
            let child = member(path, &key);
            // The colon is the value's (a value of the wrong kind is
            // refused there); any other byte is the object's error.
            if self.b.get(self.pos) != Some(&b':') {
                self.peek(path)?;
                return Err(());
            }
            let outer = self.owner.replace(path.to_string());
            self.eat(&child)?;
            self.value(&child, true, depth + 1)?;
            self.owner = outer;
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
        let outer = self.owner.take();
        self.items(path, depth)?;
        self.owner = outer;
        Ok(())
    }

    fn items(&mut self, path: &str, depth: usize) -> Step {
        let mut i = 0;
        let opener = self.separator(path, i);
        self.eat(&opener)?;
        loop {
            // Before the element: its own bytes for an error found there,
            // the list's at the end of the text or when no element follows
            // (an empty list, a trailing comma).
            let child = if self.next_is_close() {
                path.to_string()
            } else {
                element(path, i)
            };
            // (The element's first byte is left to it: a `[` there may be
            // its own first element's, `separator`.)
            while self.at_end_is_not(path)? {
                if !matches!(self.b[self.pos], b' ' | b'\t' | b'\n' | b'\r') {
                    break;
                }
                self.eat(&child)?;
            }
            if self.b.get(self.pos) == Some(&b']') {
                self.eat(path)?;
                return Ok(());
            }
            self.value(&child, false, depth + 1)?;
            self.last = Some(self.pos);
            i += 1;
            self.ws(path)?;
            let sep = self.separator(path, i);
            match self.eat(&sep)? {
                b',' => continue,
                b']' => return Ok(()),
                _ => return Err(()),
            }
        }
    }

    /// Whose the `[` or `,` at the cursor is, before element `i`: the
    /// list's, except in a data error when an element follows (see
    /// [`Walk::data`]).
    fn separator(&self, path: &str, i: usize) -> String {
        let opens = matches!(self.b.get(self.pos), Some(b'[' | b','));
        let rest = self.b.get(self.pos + 1..).unwrap_or_default();
        let next = rest
            .iter()
            .find(|c| !matches!(c, b' ' | b'\t' | b'\n' | b'\r'));
        if self.data && opens && next.is_some_and(|&c| c != b']') {
            element(path, i)
        } else {
            path.to_string()
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

    /// A number, `true`, `false` or `null`, read as serde_json reads it:
    /// the bytes it takes, and the byte it refuses, are the value's; the
    /// byte after a whole value is only looked at (the container's).
    fn scalar(&mut self, path: &str) -> Step {
        match self.eat(path)? {
            b't' => self.ident(path, b"rue"),
            b'f' => self.ident(path, b"alse"),
            b'n' => self.ident(path, b"ull"),
            b'-' => {
                let first = self.eat(path)?;
                self.number(path, first)
            }
            first @ b'0'..=b'9' => self.number(path, first),
            _ => Err(()),
        }
    }

    /// The rest of `true`, `false` or `null`: serde_json takes each byte
    /// and refuses the first that differs.
    fn ident(&mut self, path: &str, rest: &[u8]) -> Step {
        for &want in rest {
            if self.eat(path)? != want {
                return Err(());
            }
        }
        Ok(())
    }

    /// A number after its first digit `first` (taken): a lone leading
    /// zero, then an optional fraction and exponent, each refused at the
    /// first byte that does not fit.
    fn number(&mut self, path: &str, first: u8) -> Step {
        match first {
            b'0' if self.next_is_digit() => return self.refuse(path),
            b'0' => {}
            b'1'..=b'9' => self.digits(path)?,
            _ => return Err(()),
        }
        if self.b.get(self.pos) == Some(&b'.') {
            self.eat(path)?;
            if !self.next_is_digit() {
                return self.refuse(path);
            }
            self.digits(path)?;
        }
        if matches!(self.b.get(self.pos), Some(b'e' | b'E')) {
            self.eat(path)?;
            if matches!(self.b.get(self.pos), Some(b'+' | b'-')) {
                self.eat(path)?;
            }
            if !self.eat(path)?.is_ascii_digit() {
                return Err(());
            }
            self.digits(path)?;
        }
        Ok(())
    }

    fn next_is_digit(&self) -> bool {
        self.b.get(self.pos).is_some_and(u8::is_ascii_digit)
    }

    fn digits(&mut self, path: &str) -> Step {
        while self.next_is_digit() {
            self.eat(path)?;
        }
        Ok(())
    }

    /// serde_json refuses the byte at the cursor (or the end of the text)
    /// without taking it.
    fn refuse(&mut self, path: &str) -> Step {
        self.peek(path)?;
        Err(())
    }
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
        match serde_path_to_error::deserialize::<_, T>(&mut de) {
            Ok(_) => de
                .end()
                .err()
                .map(|e| serde_diagnostic(text, "s.json", String::new(), e)),
            Err(e) => {
                let path = tracked_path(e.path());
                Some(serde_diagnostic(text, "s.json", path, e.into_inner()))
            }
        }
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

    /// The shipped scenario files (`scenarios/*.json`), sorted.
    fn shipped_scenarios() -> Vec<std::path::PathBuf> {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../scenarios");
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect();
        files.sort();
        assert!(files.len() > 10, "shipped scenarios not found in {dir}");
        files
    }

    /// Random edits of the shipped scenarios (pretty and compact): a span
    /// deleted or replaced by a JSON fragment. Drawn from a printed seed
    /// (`PSMR_ERRPATH_SEED` replays or varies it), so a failure names the
    /// seed and the edit that made it.
    #[test]
    fn randomly_edited_scenarios_are_located_as_the_tracked_parse_did() {
        const FRAGMENTS: [&str; 16] = [
            "",
            "{",
            "}",
            "[",
            "]",
            ",",
            ":",
            "\"",
            "1",
            "-1.5",
            "null",
            "{}",
            "[]",
            "\"x\": 1,",
            r#"{"kind": "q"}"#,
            r#""kind": "a","#,
        ];
        let seed = std::env::var("PSMR_ERRPATH_SEED")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(0x5eed_e77a_u64);
        let mut rng = psmr_core::workload::SplitMix64::new(seed);
        let files = shipped_scenarios();
        let (mut compared, mut shown) = (0, Vec::new());
        for f in &files {
            let text = std::fs::read_to_string(f).unwrap();
            let compact = serde_json::from_str::<Value>(&text).unwrap().to_string();
            for base in [&text, &compact] {
                for _ in 0..60 {
                    let at = rng.next_u64() as usize % (base.len() + 1);
                    let end = (at + rng.next_u64() as usize % 8).min(base.len());
                    if !base.is_char_boundary(at) || !base.is_char_boundary(end) {
                        continue;
                    }
                    let frag = FRAGMENTS[rng.next_u64() as usize % FRAGMENTS.len()];
                    let m = format!("{}{frag}{}", &base[..at], &base[end..]);
                    let (old, new) = (tracked::<Scenario>(&m), plain::<Scenario>(&m));
                    compared += usize::from(old.is_some());
                    if old != new && shown.len() < 20 {
                        shown.push(format!(
                            "{} ({} bytes), bytes {at}..{end} replaced by {frag:?} ({:?}):\n  old {old:?}\n  new {new:?}",
                            f.display(),
                            base.len(),
                            &m[m.floor_char_boundary(at.saturating_sub(40))..m.ceil_char_boundary((at + 40).min(m.len()))]
                        ));
                    }
                }
            }
        }
        println!("seed {seed}: {compared} located errors compared");
        assert!(compared > 1000, "only {compared} errors compared");
        assert!(
            shown.is_empty(),
            "seed {seed} (PSMR_ERRPATH_SEED): located errors differ:\n{}",
            shown.join("\n")
        );
    }

    /// Issue 30: the plain parse locates every error of every mutated
    /// shipped scenario exactly as the tracked parse did (file, line,
    /// column, field path and message).
    #[test]
    fn every_mutated_scenario_is_located_as_the_tracked_parse_did() {
        let files = shipped_scenarios();
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
