//! METIS graph and partition files, so the same graphs can be given to
//! `gpmetis` and to this crate.
//!
//! Graph file (METIS 5 manual, section 4.1.1): lines starting with `%` are
//! comments; the header is `n m [fmt [ncon]]`; then one line per vertex,
//! listing `[weight] neighbour [edge weight] ...` with neighbours numbered
//! from 1. `fmt` is up to three binary digits: vertex sizes (not supported
//! here), vertex weights, edge weights. `ncon` must be 1. Partition file
//! (`gpmetis` output): one part number per line, vertex by vertex.
//!
//! Errors carry the 1-based line and column and what was expected.

use std::fmt;
use std::fmt::Write as _;

use crate::graph::Graph;

/// A malformed file: where and what was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in characters).
    pub col: usize,
    /// What was expected there.
    pub expected: String,
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.col, self.expected)
    }
}

impl std::error::Error for FormatError {}

fn err(line: usize, col: usize, expected: impl Into<String>) -> FormatError {
    FormatError {
        line,
        col,
        expected: expected.into(),
    }
}

/// Whitespace-separated tokens of a line with their 1-based columns.
fn tokens(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    for (i, c) in line
        .char_indices()
        .chain(std::iter::once((line.len(), ' ')))
    {
        match (c.is_whitespace(), start) {
            (true, Some(s)) => {
                out.push((s, &line[s..i]));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    out.into_iter()
        .map(|(s, t)| (line[..s].chars().count() + 1, t))
        .collect()
}

fn number(line: usize, (col, tok): (usize, &str), what: &str) -> Result<u64, FormatError> {
    tok.parse::<u64>().map_err(|_| {
        err(
            line,
            col,
            format!("{what} (a non-negative integer), found `{tok}`"),
        )
    })
}

/// The non-comment lines with their 1-based numbers.
fn data_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l))
        .filter(|(_, l)| !l.starts_with('%'))
}

struct Header {
    n: usize,
    m: usize,
    m_col: usize,
    vertex_weights: bool,
    edge_weights: bool,
    line: usize,
}

fn header(line: usize, text: &str) -> Result<Header, FormatError> {
    let toks = tokens(text);
    if toks.len() < 2 || toks.len() > 4 {
        return Err(err(line, 1, "a header `vertices edges [fmt [ncon]]`"));
    }
    let n = number(line, toks[0], "the vertex count")? as usize;
    let m = number(line, toks[1], "the edge count")? as usize;
    let (mut vertex_weights, mut edge_weights) = (false, false);
    if let Some(&(col, fmt)) = toks.get(2) {
        let ok = fmt.len() <= 3 && fmt.chars().all(|c| c == '0' || c == '1');
        if !ok {
            return Err(err(
                line,
                col,
                format!("fmt: up to three digits 0 or 1, found `{fmt}`"),
            ));
        }
        let digits: Vec<bool> = format!("{fmt:0>3}").chars().map(|c| c == '1').collect();
        if digits[0] {
            return Err(err(
                line,
                col,
                "fmt without vertex sizes (1xx is not supported)",
            ));
        }
        vertex_weights = digits[1];
        edge_weights = digits[2];
    }
    if let Some(&tok) = toks.get(3) {
        if number(line, tok, "ncon")? != 1 {
            return Err(err(line, tok.0, "ncon = 1 (one weight per vertex)"));
        }
    }
    Ok(Header {
        n,
        m,
        m_col: toks[1].0,
        vertex_weights,
        edge_weights,
        line,
    })
}

/// Parses a METIS graph file into a validated [`Graph`].
pub fn read_graph(text: &str) -> Result<Graph, FormatError> {
    let mut lines = data_lines(text);
    let (hl, ht) = lines.next().ok_or_else(|| err(1, 1, "a header line"))?;
    let h = header(hl, ht)?;
    if h.n > crate::graph::MAX_VERTICES {
        return Err(err(
            h.line,
            1,
            format!("at most {} vertices", crate::graph::MAX_VERTICES),
        ));
    }
    let mut xadj = Vec::with_capacity(h.n + 1);
    let mut adjncy: Vec<u32> = Vec::new();
    let mut adjwgt: Vec<u64> = Vec::new();
    let mut vwgt = Vec::with_capacity(h.n);
    // (line, column) of each adjncy entry, to locate graph errors.
    let mut place: Vec<(usize, usize)> = Vec::new();
    xadj.push(0);
    let mut last_line = h.line;
    for v in 0..h.n {
        let Some((ln, text)) = lines.next() else {
            return Err(err(
                last_line + 1,
                1,
                format!("{} vertex lines, found {v}", h.n),
            ));
        };
        last_line = ln;
        let mut toks = tokens(text).into_iter();
        vwgt.push(if h.vertex_weights {
            let tok = toks
                .next()
                .ok_or_else(|| err(ln, 1, format!("the weight of vertex {}", v + 1)))?;
            number(ln, tok, "a vertex weight")?
        } else {
            1
        });
        while let Some(tok) = toks.next() {
            let u = number(ln, tok, "a neighbour")?;
            if u == 0 || u as usize > h.n {
                return Err(err(
                    ln,
                    tok.0,
                    format!("a neighbour in 1..={}, found {u}", h.n),
                ));
            }
            let w = if h.edge_weights {
                let wt = toks
                    .next()
                    .ok_or_else(|| err(ln, tok.0, "an edge weight after the neighbour"))?;
                number(ln, wt, "an edge weight")?
            } else {
                1
            };
            place.push((ln, tok.0));
            adjncy.push((u - 1) as u32);
            adjwgt.push(w);
        }
        xadj.push(adjncy.len());
    }
    if let Some((ln, text)) = lines.find(|(_, l)| !l.trim().is_empty()) {
        let col = tokens(text).first().map_or(1, |t| t.0);
        return Err(err(
            ln,
            col,
            format!("end of file after {} vertex lines", h.n),
        ));
    }
    if adjncy.len() != 2 * h.m {
        return Err(err(
            h.line,
            h.m_col,
            format!(
                "an edge count matching the lists ({} edges listed twice = {} entries), found {}",
                adjncy.len() / 2,
                adjncy.len(),
                h.m
            ),
        ));
    }
    Graph::new(xadj, adjncy, adjwgt, vwgt).map_err(|e| {
        let index = ["adjncy[", "adjwgt["]
            .iter()
            .find_map(|p| e.path.strip_prefix(p))
            .and_then(|rest| rest.trim_end_matches(']').parse::<usize>().ok());
        let (line, col) = index
            .and_then(|i| place.get(i).copied())
            .unwrap_or((h.line, 1));
        err(line, col, e.expected)
    })
}

/// Writes `g` as a METIS graph file with vertex and edge weights (fmt 011).
pub fn write_graph(g: &Graph) -> String {
    let mut out = String::with_capacity(g.adjncy().len() * 8 + 32);
    let _ = writeln!(out, "{} {} 011", g.vertex_count(), g.edge_count());
    for v in 0..g.vertex_count() as u32 {
        let _ = write!(out, "{}", g.vertex_weight(v));
        for (u, w) in g.neighbors(v) {
            let _ = write!(out, " {} {}", u + 1, w);
        }
        out.push('\n');
    }
    out
}

/// Parses a partition file (one part per line) for `n` vertices and `parts`
/// parts.
pub fn read_partition(text: &str, n: usize, parts: u32) -> Result<Vec<u32>, FormatError> {
    let mut part = Vec::with_capacity(n);
    for (ln, line) in data_lines(text) {
        let toks = tokens(line);
        match toks.as_slice() {
            [] => continue,
            [tok] => {
                if part.len() == n {
                    return Err(err(ln, tok.0, format!("end of file after {n} parts")));
                }
                let p = number(ln, *tok, "a part number")?;
                if p >= parts as u64 {
                    return Err(err(ln, tok.0, format!("a part below {parts}, found {p}")));
                }
                part.push(p as u32);
            }
            [_, extra, ..] => return Err(err(ln, extra.0, "one part number per line")),
        }
    }
    if part.len() != n {
        return Err(err(
            text.lines().count() + 1,
            1,
            format!("{n} part numbers, found {}", part.len()),
        ));
    }
    Ok(part)
}

/// Writes a partition file (one part per line).
pub fn write_partition(part: &[u32]) -> String {
    let mut out = String::with_capacity(part.len() * 3);
    for p in part {
        let _ = writeln!(out, "{p}");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The example graph of the METIS manual (figure 2b: 7 vertices, 11 edges,
    /// unweighted).
    const MANUAL: &str = "% a comment\n7 11\n5 3 2\n1 3 4\n5 4 2 1\n2 3 6 7\n1 3 6\n5 4 7\n6 4\n";

    #[test]
    fn reads_the_manual_example() {
        let g = read_graph(MANUAL).unwrap();
        assert_eq!(g.vertex_count(), 7);
        assert_eq!(g.edge_count(), 11);
        assert_eq!(
            g.neighbors(0).collect::<Vec<_>>(),
            vec![(4, 1), (2, 1), (1, 1)]
        );
    }

    #[test]
    fn write_then_read_is_the_same_graph() {
        let g = crate::fixture::planted_partition(3, 20, 4, 1, 9).graph;
        let again = read_graph(&write_graph(&g)).unwrap();
        assert_eq!(again, g);
    }

    #[test]
    fn weighted_formats() {
        let g = read_graph("3 2 011\n4 2 7\n5 1 7 3 2\n6 2 2\n").unwrap();
        assert_eq!(g.vwgt(), &[4, 5, 6]);
        assert_eq!(g.adjwgt(), &[7, 7, 2, 2]);
        let g = read_graph("2 1 10\n3 2\n4 1\n").unwrap();
        assert_eq!(g.vwgt(), &[3, 4]);
        let g = read_graph("2 1 1\n2 9\n1 9\n").unwrap();
        assert_eq!(g.adjwgt(), &[9, 9]);
    }

    #[test]
    fn errors_are_located() {
        let at = |text: &str| {
            let e = read_graph(text).unwrap_err();
            (e.line, e.col)
        };
        assert_eq!(at("2 1\n2\n3\n"), (3, 1)); // neighbour out of range
        assert_eq!(at("2 1\n2\n"), (3, 1)); // missing vertex line
        assert_eq!(at("2 2\n2\n1\n"), (1, 3)); // edge count
        assert_eq!(at("2 1\n2 x\n1\n"), (2, 3)); // not a number
        assert_eq!(at("3 1\n2\n\n2\n"), (2, 1)); // 1 -> 2 without its twin
        assert_eq!(at("2 1 1\n2 1\n1 2\n"), (2, 1)); // twin weights differ
        assert_eq!(at("2 1 100\n2\n1\n"), (1, 5)); // vertex sizes
        assert_eq!(at("2 1 011 2\n1 2 1\n1 1 1\n"), (1, 9)); // ncon
        assert_eq!(at("2 1\n2\n1\n1\n"), (4, 1)); // trailing line
        assert_eq!(at("2 2\n1 2\n1 2\n"), (2, 1)); // self loop
        let e = read_graph("2 2\n2 2\n1 1\n").unwrap_err();
        assert_eq!((e.line, e.col), (2, 3));
        assert!(e.expected.contains("twice"), "{e}");
    }

    #[test]
    fn partition_files() {
        assert_eq!(read_partition("0\n2\n1\n", 3, 3).unwrap(), vec![0, 2, 1]);
        assert_eq!(write_partition(&[0, 2, 1]), "0\n2\n1\n");
        assert_eq!(read_partition("0\n3\n", 2, 3).unwrap_err().line, 2);
        assert_eq!(read_partition("0\n", 2, 3).unwrap_err().line, 2);
        assert_eq!(read_partition("0 1\n1\n", 2, 3).unwrap_err().col, 3);
    }
}
