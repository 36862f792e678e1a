// node --test scripts/import-cycles.test.mjs: the circle check finds a
// circle where there is one (Rust through `use` and paths, through a
// re-export; TypeScript through imports) and none in a DAG.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'node:test';
import assert from 'node:assert/strict';

const script = path.join(path.dirname(new URL(import.meta.url).pathname), 'import-cycles.mjs');

function tree(files) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cycles-'));
  for (const [f, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, f)), { recursive: true });
    fs.writeFileSync(path.join(root, f), text);
  }
  return root;
}

/** The circle check's exit code and output on a tree of `files` (path -> text). */
function check(files) {
  const root = tree(files);
  try {
    return { code: 0, out: execFileSync('node', [script, root], { encoding: 'utf8' }) };
  } catch (e) {
    return { code: e.status, out: e.stdout };
  }
}

const src = 'engine/crates/k/src';

/** The check finds a circle in `files` and names it as `pattern` says. */
function assertCircle(files, pattern) {
  const r = check(files);
  assert.equal(r.code, 1, r.out);
  assert.match(r.out, pattern);
}

test('a DAG has no circle', () => {
  const r = check({
    [`${src}/lib.rs`]: 'mod a;\nmod b;\npub use a::A;\n',
    [`${src}/a.rs`]: 'use crate::b::B;\npub struct A(B);\n',
    [`${src}/b.rs`]: 'pub struct B;\n#[cfg(test)]\nmod tests {\n    use crate::a::A;\n}\n',
    'web/src/x.ts': "import { y } from './y';\nexport const x = y;\n",
    'web/src/y.ts': 'export const y = 1;\n',
  });
  assert.equal(r.code, 0, r.out);
  assert.match(r.out, /no import circles/);
});

test('two Rust files using each other are a circle, also through a re-export and a path', () => {
  assertCircle(
    {
      [`${src}/lib.rs`]: 'mod a;\nmod b;\npub use b::B;\n',
      [`${src}/a.rs`]: 'use crate::B;\npub struct A(B);\n',
      [`${src}/b.rs`]: 'pub struct B;\nfn f() -> crate::a::A { todo!() }\n',
    },
    /k: .*a\.rs <-> .*b\.rs/,
  );
});

test('a parent module and its child using each other are a circle', () => {
  assertCircle(
    {
      [`${src}/lib.rs`]: 'mod m;\n',
      [`${src}/m/mod.rs`]: 'mod c;\npub struct P;\nfn f() { c::g(); }\n',
      [`${src}/m/c.rs`]: 'use super::P;\npub fn g() -> Option<P> { None }\n',
    },
    /m\/c\.rs <-> .*m\/mod\.rs/,
  );
});

test('TypeScript files importing each other are a circle, dynamic imports are not', () => {
  const circle = check({
    'web/src/x.ts': "import type { Y } from './y';\nexport type X = Y;\n",
    'web/src/y.ts': "import { x } from './x';\nexport type Y = typeof x;\n",
  });
  assert.equal(circle.code, 1, circle.out);
  const lazy = check({
    'web/src/x.ts': "export const x = () => import('./y');\n",
    'web/src/y.ts': "import { x } from './x';\nexport const y = x;\n",
  });
  assert.equal(lazy.code, 0, lazy.out);
});
