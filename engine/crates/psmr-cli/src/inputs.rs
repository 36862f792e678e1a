//! The files a `psmr check` run judges: folders expanded to their scenario
//! files, in one order every runner agrees on, and the slice of them that
//! one shard of a CI matrix takes.

use std::path::{Path, PathBuf};
use std::str::FromStr;

/// The JSON Schema shipped beside the scenarios: a schema, not a scenario.
const SCHEMA_FILE: &str = "scenario.schema.json";

/// Shard `index` of `count` (1-based, as Playwright's `--shard` spells it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Shard {
    pub index: usize,
    pub count: usize,
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let bad = || format!("expected i/n with 1 <= i <= n (e.g. 2/4), found `{s}`");
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let index: usize = i.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || count == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl Shard {
    /// Round-robin over the sorted list: shard i takes the files at
    /// positions i-1, i-1+n, ... Every file lands in exactly one shard and
    /// the shards' sizes differ by at most one.
    pub fn take<T>(self, all: Vec<T>) -> Vec<T> {
        all.into_iter()
            .enumerate()
            .filter(|(k, _)| k % self.count == self.index - 1)
            .map(|(_, f)| f)
            .collect()
    }
}

/// Each argument as given if it is a file; a folder becomes its `*.json`
/// files (recursively, the schema left out). The result is sorted and
/// free of repeats, so every runner of a matrix sees the same list.
pub(crate) fn expand(args: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    for a in args {
        if a.is_dir() {
            collect_dir(a, &mut files)?;
        } else {
            files.push(a.clone());
        }
    }
    files.sort();
    files.dedup();
    Ok(files)
}

fn collect_dir(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    for entry in entries {
        let path = entry
            .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
            .path();
        if path.is_dir() {
            collect_dir(&path, out)?;
        } else if is_scenario_file(&path) {
            out.push(path);
        }
    }
    Ok(())
}

fn is_scenario_file(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "json")
        && path.file_name().is_some_and(|n| n != SCHEMA_FILE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_specs_are_checked() {
        assert_eq!("2/4".parse(), Ok(Shard { index: 2, count: 4 }));
        for bad in ["0/4", "5/4", "1/0", "2", "a/b", "1/2/3", ""] {
            let e = bad.parse::<Shard>().unwrap_err();
            assert!(e.contains("expected i/n"), "{bad}: {e}");
        }
    }

    #[test]
    fn shards_partition_the_list() {
        for n in 1..=7 {
            let mut seen = Vec::new();
            for i in 1..=n {
                let part = Shard { index: i, count: n }.take((0..23).collect());
                assert!(part.len() >= 23 / n && part.len() <= 23 / n + 1);
                seen.extend(part);
            }
            seen.sort();
            assert_eq!(seen, (0..23).collect::<Vec<_>>(), "n = {n}");
        }
    }

    #[test]
    fn folders_expand_to_sorted_scenarios_without_the_schema() {
        let dir = std::env::temp_dir().join(format!("psmr-inputs-{}", std::process::id()));
        let sub = dir.join("sub");
        std::fs::create_dir_all(&sub).unwrap();
        for f in ["b.json", "a.json", SCHEMA_FILE, "notes.md"] {
            std::fs::write(dir.join(f), "{}").unwrap();
        }
        std::fs::write(sub.join("c.json"), "{}").unwrap();
        let got = expand(&[dir.clone(), dir.join("a.json")]).unwrap();
        let names: Vec<_> = got
            .iter()
            .map(|p| p.strip_prefix(&dir).unwrap().display().to_string())
            .collect();
        assert_eq!(names, ["a.json", "b.json", "sub/c.json"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
