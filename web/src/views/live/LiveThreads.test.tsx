import { act, createElement } from 'react';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunSnapshot } from '../../engine/protocol';
import { readyInfo } from '../../engine/testing';
import { runStore } from '../../store';
import { LiveThreads, workerRates } from './LiveThreads';

/** A poll of a run in progress, with the (planned) per-worker figures. */
function snap(elapsed_ms: number, executed: number[], extra: Partial<RunSnapshot> = {}): RunSnapshot {
  return {
    run_index: 1,
    runs_total: 3,
    scheduler: 'early',
    threads: executed.length,
    requests: 1000,
    executed: executed.reduce((a, b) => a + b, 0),
    delivered: 600,
    elapsed_ms,
    workers: executed.map((e, t) => ({
      executed: e,
      queue_len: 3 * t,
      state: t === 0 ? 'executing' : t === 1 ? 'waiting' : 'idle',
    })),
    ...extra,
  };
}

/**
 * A DOM for these tests (as in export/svg.test.ts: jsdom is installed with
 * the web package, loaded here by a variable specifier since it has no types).
 */
beforeAll(async () => {
  const specifier = 'jsdom';
  const { JSDOM } = (await import(/* @vite-ignore */ specifier)) as {
    JSDOM: new (html: string) => { window: Window & typeof globalThis };
  };
  const { window } = new JSDOM('<!doctype html><body></body>');
  // jsdom lays nothing out: a ResizeObserver that never reports is all the charts need.
  class NoResize {
    observe() {}
    disconnect() {}
  }
  Object.assign(globalThis, {
    window,
    document: window.document,
    navigator: window.navigator,
    ResizeObserver: NoResize,
  });
});

/** Render the live view in a DOM (the stores' current state, not their initial one) and return its HTML. */
async function render(): Promise<string> {
  const { createRoot } = await import('react-dom/client');
  const host = document.createElement('div');
  const root = createRoot(host);
  act(() => root.render(createElement(LiveThreads)));
  const html = host.innerHTML;
  act(() => root.unmount());
  return html;
}

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const info = readyInfo(20);
const up = { engine: { state: 'ready' as const, info } };

describe('live threads', () => {
  it('rates each worker between two polls of the same run', () => {
    const a = snap(100, [10, 20, 0]);
    const b = snap(200, [30, 25, 0]);
    expect(workerRates(a, b)).toEqual([200, 50, 0]);
    // Another run, or no previous poll: no rate yet.
    expect(workerRates({ ...a, run_index: 0 }, b)).toEqual([0, 0, 0]);
    expect(workerRates(null, b)).toEqual([0, 0, 0]);
  });

  it('shows every worker with its state, executed count and queue while the run goes on', async () => {
    runStore.setState({
      ...up,
      phase: 'running',
      prevProgress: snap(100, [10, 20, 0]),
      progress: snap(200, [30, 25, 0]),
    });
    const html = await render();
    expect(html).toContain('data-testid="live-lanes"');
    const lanes = [...html.matchAll(/data-thread="(\d)" data-state="(\w+)" data-executed="(\d+)" data-queue="(\d+)"/g)];
    expect(lanes.map((m) => [m[1], m[2], m[3], m[4]])).toEqual([
      ['0', 'executing', '30', '0'],
      ['1', 'waiting', '25', '3'],
      ['2', 'idle', '0', '6'],
    ]);
    expect(html).toContain('200/s');
    expect(html).toContain('run 2 of 3');
  });

  it('says so when the engine sends no per-thread figures', async () => {
    const bare = snap(200, [1, 2]);
    delete bare.workers;
    runStore.setState({ ...up, phase: 'running', prevProgress: null, progress: bare });
    const html = await render();
    expect(html).not.toContain('live-lanes');
    expect(html).toContain('data-testid="live-no-workers"');
  });

  it('says the engine is starting while the first run of the page waits for it', async () => {
    runStore.setState({ engine: { state: 'starting' }, phase: 'running', prevProgress: null, progress: null });
    const html = await render();
    expect(html).toContain('data-testid="live-starting"');
    expect(html).toContain('data-starting="true"');
    expect(html).toContain('starting the engine…');
    expect(html).not.toContain('Generating the request stream');
    runStore.setState({ ...up });
    expect(await render()).toContain('Generating the request stream');
  });
});
