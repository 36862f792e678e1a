#!/usr/bin/env node
// Import circles between files: prints every strongly connected component of
// more than one file in the file-level import graph of each engine crate
// (`engine/crates/*/src`) and of the web app (`web/src`), and exits 1 if there
// is any. Usage: node scripts/import-cycles.mjs [repo root] [--json]
//
// Rust: a file is its module. An edge a -> b when a names b's module in a
// `use` or a path (`crate::x::`, `super::`, `self::child::`, a child module's
// name followed by `::`). Names imported from a module that only re-exports
// them (`pub use child::Name` in lib.rs or a mod.rs) resolve to the file that
// defines them; `mod x;` declarations and `pub use` re-exports are not edges.
// Test-only code (`#[cfg(test)] mod tests { .. }` inline, `*tests.rs` files)
// is skipped: tests may reach anywhere.
// TypeScript: static `import` / `export .. from` of a relative path (type-only
// imports count: they tie the files' contracts); dynamic `import()` does not
// (a lazy chunk boundary). Test files (`*.test.ts(x)`) are skipped.
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(process.argv.slice(2).find((a) => !a.startsWith('--')) ?? '.');
const asJson = process.argv.includes('--json');

function walk(dir, keep) {
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...walk(p, keep));
    else if (keep(p)) out.push(p);
  }
  return out;
}

/** Tarjan's SCCs of `graph` (Map node -> Set node), components of size > 1. */
function cycles(graph) {
  let index = 0;
  const idx = new Map();
  const low = new Map();
  const stack = [];
  const on = new Set();
  const out = [];
  const strong = (v) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const comp = [];
      let w;
      do {
        w = stack.pop();
        on.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1) out.push(comp.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) strong(v);
  return out;
}

// ---------- Rust ----------

/** Drop comments, string literals and inline `#[cfg(test)] mod x { .. }` blocks. */
function rustCode(src) {
  let s = src
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\/\/.*$/gm, '')
    .replace(/"(?:\\.|[^"\\])*"/g, '""');
  for (;;) {
    const m = /#\[cfg\([^\]]*\btest\b[^\]]*\)\]\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+\w+\s*\{/.exec(s);
    if (!m) break;
    let depth = 0;
    let i = m.index + m[0].length - 1;
    for (; i < s.length; i++) {
      if (s[i] === '{') depth++;
      else if (s[i] === '}' && --depth === 0) break;
    }
    s = s.slice(0, m.index) + s.slice(i + 1);
  }
  return s;
}

function rustCrate(src) {
  const files = walk(src, (p) => p.endsWith('.rs'));
  // module path ("a::b") -> file
  const modFile = new Map();
  for (const f of files) {
    const rel = path.relative(src, f).replace(/\.rs$/, '').split(path.sep);
    if (rel[rel.length - 1] === 'mod' || (rel.length === 1 && ['lib', 'main'].includes(rel[0]))) rel.pop();
    modFile.set(rel.join('::'), f);
  }
  const modOf = new Map([...modFile].map(([m, f]) => [f, m]));
  const code = new Map(files.map((f) => [f, rustCode(fs.readFileSync(f, 'utf8'))]));
  // re-exports: "module::Name" -> module path that the name comes from
  const reexport = new Map();
  for (const f of files) {
    const here = modOf.get(f);
    for (const m of code.get(f).matchAll(/pub(?:\([^)]*\))?\s+use\s+([^;]+);/g)) {
      for (const [p, name] of flattenUse(m[1])) {
        const target = resolveMod(here, p, modFile);
        if (target !== null) reexport.set(join(here, name), target);
      }
    }
  }
  const definer = (mod, name) => {
    let m = mod;
    const seen = new Set();
    for (;;) {
      const key = join(m, name);
      if (modFile.has(key)) return key; // a module itself
      if (!reexport.has(key) || seen.has(key)) return m;
      seen.add(key);
      m = reexport.get(key);
    }
  };
  const graph = new Map();
  for (const f of files) {
    if (/tests?\.rs$/.test(f)) continue;
    const here = modOf.get(f);
    const deps = new Set();
    const add = (mod) => {
      if (mod === null || mod === here) return;
      const file = modFile.get(mod);
      if (file && file !== f && !/tests?\.rs$/.test(file)) deps.add(file);
    };
    const body = code.get(f);
    for (const m of body.matchAll(/(?<!pub(?:\([^)]*\))?\s+)\buse\s+([^;]+);/g)) {
      for (const [p, name] of flattenUse(m[1])) {
        const mod = resolveMod(here, p, modFile);
        if (mod !== null) add(name === '*' || name === 'self' ? mod : definer(mod, name));
      }
    }
    // paths in code (outside `use` items): crate::a::b::Name, super::x::Name, child::Name
    const rest = body.replace(/\b(?:pub(?:\([^)]*\))?\s+)?use\s+[^;]+;/g, '');
    const children = [...modFile.keys()].filter((k) => parentOf(k) === here && k !== here).map((k) => last(k));
    for (const m of rest.matchAll(/\b((?:crate|super|self|[a-z_][a-z0-9_]*)(?:::[A-Za-z_][A-Za-z0-9_]*)+)/g)) {
      const segs = m[1].split('::');
      if (!['crate', 'super', 'self'].includes(segs[0]) && !children.includes(segs[0])) continue;
      const p = segs[0] === 'crate' || segs[0] === 'super' || segs[0] === 'self' ? segs : ['self', ...segs];
      const name = p.pop();
      const mod = resolveMod(here, p, modFile);
      if (mod !== null) add(definer(mod, name));
    }
    graph.set(f, deps);
  }
  return graph;
}

const join = (a, b) => (a ? `${a}::${b}` : b);
const parentOf = (m) => (m.includes('::') ? m.slice(0, m.lastIndexOf('::')) : m === '' ? null : '');
const last = (m) => m.slice(m.lastIndexOf(':') + 1);

/** `a::{b::C, d}` -> [[['a','b'], 'C'], [['a'], 'd']]. */
function flattenUse(tree) {
  const t = tree.replace(/\s+/g, '');
  const out = [];
  const rec = (prefix, s) => {
    const brace = s.indexOf('{');
    if (brace < 0) {
      const segs = s.split(/\bas\b/)[0].split('::').filter(Boolean);
      if (!segs.length) return;
      out.push([[...prefix, ...segs.slice(0, -1)], segs[segs.length - 1]]);
      return;
    }
    const head = s.slice(0, brace).split('::').filter(Boolean);
    const inner = s.slice(brace + 1, s.lastIndexOf('}'));
    let depth = 0;
    let start = 0;
    for (let i = 0; i <= inner.length; i++) {
      const c = inner[i];
      if (c === '{') depth++;
      else if (c === '}') depth--;
      else if ((c === ',' || i === inner.length) && depth === 0) {
        const part = inner.slice(start, i);
        if (part) rec([...prefix, ...head], part);
        start = i + 1;
      }
    }
  };
  rec([], t.replace(/\bas[A-Za-z_]\w*/g, ''));
  return out;
}

/** The module a `use` path prefix names, from module `here`; null if outside the crate. */
function resolveMod(here, segs, modFile) {
  if (!segs.length) return null;
  let mod;
  let rest;
  if (segs[0] === 'crate') [mod, rest] = ['', segs.slice(1)];
  else if (segs[0] === 'self') [mod, rest] = [here, segs.slice(1)];
  else if (segs[0] === 'super') {
    mod = here;
    rest = segs;
    while (rest[0] === 'super') {
      mod = parentOf(mod) ?? '';
      rest = rest.slice(1);
    }
  } else if (modFile.has(join(here, segs[0]))) [mod, rest] = [here, segs];
  else return null;
  for (const s of rest) {
    if (!modFile.has(join(mod, s))) break;
    mod = join(mod, s);
  }
  return mod;
}

// ---------- TypeScript ----------

function tsGraph(src) {
  const files = walk(src, (p) => /\.(ts|tsx)$/.test(p) && !/\.test\.tsx?$/.test(p) && !p.includes('engine-pkg'));
  const set = new Set(files);
  const resolve = (from, spec) => {
    const base = path.resolve(path.dirname(from), spec);
    for (const c of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')])
      if (set.has(c)) return c;
    return null;
  };
  const graph = new Map();
  for (const f of files) {
    const src = fs.readFileSync(f, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
    const deps = new Set();
    for (const m of src.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?\bfrom\s*['"](\.[^'"]+)['"]/g)) {
      const r = resolve(f, m[1]);
      if (r && r !== f) deps.add(r);
    }
    for (const m of src.matchAll(/(?:^|\n)\s*import\s*['"](\.[^'"]+)['"]/g)) {
      const r = resolve(f, m[1]);
      if (r && r !== f) deps.add(r);
    }
    graph.set(f, deps);
  }
  return graph;
}

const found = [];
const crates = path.join(root, 'engine', 'crates');
for (const c of fs.existsSync(crates) ? fs.readdirSync(crates).sort() : []) {
  const src = path.join(crates, c, 'src');
  if (fs.existsSync(src)) for (const comp of cycles(rustCrate(src))) found.push({ where: c, files: comp });
}
const web = path.join(root, 'web', 'src');
if (fs.existsSync(web)) for (const comp of cycles(tsGraph(web))) found.push({ where: 'web', files: comp });

if (asJson) console.log(JSON.stringify(found.map((c) => ({ ...c, files: c.files.map((f) => path.relative(root, f)) }))));
else {
  for (const c of found) console.log(`${c.where}: ${c.files.map((f) => path.relative(root, f)).join(' <-> ')}`);
  console.log(found.length ? `${found.length} import circle(s)` : 'no import circles');
}
process.exit(found.length ? 1 : 0);
