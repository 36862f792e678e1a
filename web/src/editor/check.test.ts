import { describe, expect, it } from 'vitest';
import type { Report, RunOutcome } from '../engine/protocol';
import { runCheck, statusOf, summarize, type CheckEngine, type ExpectationResult } from './check';
import { readScenarioFile, saveName, MAX_FILE_BYTES } from './files';

function report(cancelled = false): Report {
  return { scenario: 's', cores: 2, runs: [{ cancelled } as Report['runs'][number]] };
}

/** A fake engine whose plan is the `repetitions` field of the text (the real one is the engine's). */
function fakeEngine(outcomes: RunOutcome[], results: ExpectationResult[] = []) {
  const calls = { runs: 0, evaluated: [] as number[][] };
  const engine: CheckEngine = {
    async plan(text) {
      const doc = JSON.parse(text) as { repetitions?: number; invalid?: boolean };
      if (doc.invalid) return { ok: false, diagnostics: [{ file: 'f', line: 1, col: 2, path: 'x', message: 'bad' }] };
      return { ok: true, repetitions: doc.repetitions ?? 1 };
    },
    async run(_text, options, onProgress) {
      expect(options.trace).toBe(false);
      onProgress?.(null);
      const o = outcomes[calls.runs++];
      if (!o) throw new Error('worker gone');
      return o;
    },
    async evaluate(_text, reportIds) {
      calls.evaluated.push(reportIds);
      return results;
    },
  };
  return { engine, calls };
}

describe('runCheck', () => {
  const results: ExpectationResult[] = [
    { name: 'correct', passed: true, message: 'all runs correct' },
    { name: 'ratio', passed: false, skipped_reason: 'needs 4 cores, this machine has 2', message: '' },
    { name: 'steals', passed: false, message: 'steals = 0, expected > 0' },
  ];

  it('runs the asked repetitions and hands every report id to the engine', async () => {
    const { engine, calls } = fakeEngine(
      [40, 41, 42].map((report_id) => ({ ok: true, report: report(), report_id })),
      results,
    );
    const progress: number[] = [];
    const out = await runCheck(engine, '{"repetitions":3}', (p) => progress.push(p.repetition));
    expect(out).toEqual({ kind: 'checked', results, repetitions: 3 });
    expect(calls.runs).toBe(3);
    expect(calls.evaluated).toHaveLength(1);
    expect(calls.evaluated[0]).toEqual([40, 41, 42]);
    expect(new Set(progress)).toEqual(new Set([1, 2, 3]));
    expect(results.map(statusOf)).toEqual(['pass', 'skipped', 'fail']);
    expect(summarize(results)).toEqual({ pass: 1, fail: 1, skipped: 1 });
  });

  it('stops at a refused scenario with its diagnostics, judging nothing', async () => {
    const diagnostics = [{ file: 'f', line: 2, col: 3, path: 'threads', message: 'too many' }];
    const { engine, calls } = fakeEngine([{ ok: false, diagnostics }]);
    expect(await runCheck(engine, '{"repetitions":2}')).toEqual({ kind: 'refused', diagnostics });
    expect(calls.evaluated).toHaveLength(0);
  });

  it('refuses a scenario the engine cannot plan, running nothing', async () => {
    const { engine, calls } = fakeEngine([{ ok: true, report: report(), report_id: 1 }]);
    const out = await runCheck(engine, '{"invalid":true}');
    expect(out).toEqual({ kind: 'refused', diagnostics: [expect.objectContaining({ path: 'x' })] });
    expect(calls.runs).toBe(0);
  });

  it('stops at a cancelled run', async () => {
    const { engine, calls } = fakeEngine([
      { ok: true, report: report(), report_id: 1 },
      { ok: true, report: report(true), report_id: 2 },
    ]);
    expect(await runCheck(engine, '{"repetitions":4}')).toEqual({
      kind: 'cancelled',
      repetition: 2,
      repetitions: 4,
    });
    expect(calls.runs).toBe(2);
    expect(calls.evaluated).toHaveLength(0);
  });

  it('turns an engine failure into a message', async () => {
    const { engine } = fakeEngine([]);
    expect(await runCheck(engine, '{}')).toEqual({ kind: 'failed', error: 'worker gone' });
  });
});

describe('files', () => {
  it('reads UTF-8 and refuses oversized or non-UTF-8 files', async () => {
    expect(await readScenarioFile(new File(['{"a":"é"}'], 'a.json'))).toEqual({
      ok: true,
      file: 'a.json',
      text: '{"a":"é"}',
    });
    const big = await readScenarioFile(new File([new Uint8Array(MAX_FILE_BYTES + 1)], 'big.json'));
    expect(big.ok).toBe(false);
    const bin = await readScenarioFile(new File([new Uint8Array([0xff, 0xfe, 0x00])], 'b.json'));
    expect(bin).toEqual({ ok: false, error: 'b.json is not UTF-8 text.' });
  });

  it('names a saved file after the open file, else the scenario name', () => {
    expect(saveName('quickstart.json', '{}')).toBe('quickstart.json');
    expect(saveName('scenario.json', '{"name":"Two shards: busy-wait!"}')).toBe('two-shards-busy-wait.json');
    expect(saveName('', '{broken')).toBe('scenario.json');
  });
});
