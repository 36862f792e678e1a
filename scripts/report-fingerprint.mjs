#!/usr/bin/env node
// The parts of a `psmr run --json` report that do not depend on timing, for
// "no behavior change" checks: run every shipped scenario with two binaries
// (before and after a refactor) and diff the fingerprints.
//   node scripts/report-fingerprint.mjs PSMR_BINARY OUT_DIR [--requests N]
// Writes OUT_DIR/<scenario>.json (the report's stable fields: scenario,
// stream, classes, and per run the scheduler, family, label, threads,
// requests, verdict, state digest (see below), delivery, mapping) and OUT_DIR/keys.txt
// (every key path seen, to catch a renamed or dropped field), plus
// OUT_DIR/<scenario>.validate.txt (what `psmr validate` prints).
//
// The state digest is compared only where it is a function of the stream:
// a request-stream family (an SMR scheduler) ends in the same state whatever
// the interleaving, and a run on virtual cores (`mode_label` set) replays one
// schedule. An event-coloring run on real threads does not: its digest
// depends on the schedule (two runs of one binary of coloring-sws and
// coloring-locality, 2000 requests, gave different digests for stealing
// runs), so there the fingerprint writes `schedule-dependent` instead.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const [bin, out] = process.argv.slice(2);
const ri = process.argv.indexOf('--requests');
const requests = ri > 0 ? process.argv[ri + 1] : '2000';
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
fs.mkdirSync(out, { recursive: true });
const keys = new Set();
const paths = (o, p) => {
  if (Array.isArray(o)) o.forEach((v) => paths(v, `${p}[]`));
  else if (o && typeof o === 'object') for (const [k, v] of Object.entries(o)) paths(v, `${p}.${k}`);
  else keys.add(p);
};
const run = (args) => {
  try {
    return { code: 0, out: execFileSync(bin, args, { encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'pipe'] }) };
  } catch (e) {
    return { code: e.status, out: `${e.stdout ?? ''}\n--stderr--\n${e.stderr ?? ''}` };
  }
};
/** The run's state digest is the same in every run of the stream (see the header). */
const digestIsStable = (x) => x.family !== 'coloring' || x.mode_label != null;
for (const f of fs.readdirSync(path.join(root, 'scenarios')).sort()) {
  if (!f.endsWith('.json') || f === 'scenario.schema.json') continue;
  const file = path.join('scenarios', f);
  const v = run(['validate', file]);
  fs.writeFileSync(path.join(out, `${f}.validate.txt`), `exit ${v.code}\n${v.out}`);
  const r = run(['run', file, '--json', '--no-trace', '--requests', requests]);
  if (r.code !== 0 && r.code !== 1) {
    fs.writeFileSync(path.join(out, f), `exit ${r.code}\n${r.out}`);
    continue;
  }
  const rep = JSON.parse(r.out.split('\n--stderr--\n')[0]);
  paths(rep, '');
  const stable = {
    exit: r.code,
    scenario: rep.scenario,
    stream: rep.stream,
    classes: rep.classes,
    runs: rep.runs.map((x) => ({
      scheduler: x.scheduler,
      family: x.family,
      label: x.label,
      threads: x.threads,
      requests: x.requests,
      executed: x.metrics?.requests,
      correct: x.correct,
      violation: x.violation ? 'violation' : null,
      state_digest: digestIsStable(x) ? x.state_digest : 'schedule-dependent',
      cancelled: x.cancelled,
      delivery: x.delivery,
      mapping: x.info?.mapping,
      mapping_how: x.info?.mapping_how?.replace(/[\d.]+ ?(ms|s|us)\b/g, 'T'),
    })),
  };
  fs.writeFileSync(path.join(out, f), `${JSON.stringify(stable, null, 1)}\n`);
}
fs.writeFileSync(path.join(out, 'keys.txt'), `${[...keys].sort().join('\n')}\n`);
