import { describe, expect, it } from 'vitest';
import { EngineBridge, type WorkerLike } from './bridge';
import type { PollSnapshot, Reply, Request } from './protocol';
import { runningPoll } from './testing';

/** A worker that records requests and lets the test answer them. */
class FakeWorker implements WorkerLike {
  sent: Request[] = [];
  terminated = false;
  private onMessage: ((ev: MessageEvent<Reply>) => void) | null = null;
  private onError: ((ev: ErrorEvent) => void) | null = null;

  postMessage(message: Request): void {
    this.sent.push(message);
  }
  addEventListener(type: 'message' | 'error', listener: never): void {
    if (type === 'message') this.onMessage = listener;
    else this.onError = listener;
  }
  terminate(): void {
    this.terminated = true;
  }
  send(reply: Reply): void {
    this.onMessage?.({ data: reply } as MessageEvent<Reply>);
  }
  crash(message: string): void {
    this.onError?.({ message } as ErrorEvent);
  }
}

const poll = (executed: number): PollSnapshot =>
  runningPoll({ threads: 2, requests: 10, executed, delivered: executed, elapsed_ms: executed });

describe('EngineBridge', () => {
  it('gives each call its own id and resolves it with its own reply', async () => {
    const w = new FakeWorker();
    const b = new EngineBridge(w);
    const v1 = b.validate('a', 'a.json');
    const v2 = b.validate('b');
    expect(w.sent.map((r) => r.id)).toEqual([1, 2]);
    expect(w.sent[0]).toEqual({ id: 1, type: 'validate', text: 'a', file: 'a.json' });
    // Answer out of order: each promise gets its own answer.
    w.send({ id: 2, type: 'reply', ok: true, result: [] });
    const diag = { file: 'a.json', line: 3, col: 5, path: 'threads', message: 'must be at least 1' };
    w.send({ id: 1, type: 'reply', ok: true, result: [diag] });
    await expect(v1).resolves.toEqual([diag]);
    await expect(v2).resolves.toEqual([]);
    expect(b.inFlight).toBe(0);
  });

  it('routes progress to the run that asked, then resolves with the outcome', async () => {
    const w = new FakeWorker();
    const b = new EngineBridge(w);
    const seen: number[] = [];
    const run = b.run('text', { trace: true }, (p) => seen.push(p.snapshot?.executed ?? -1));
    const id = w.sent[0].id;
    expect(w.sent[0]).toMatchObject({ type: 'run', text: 'text', options: { trace: true } });
    w.send({ id, type: 'progress', poll: poll(3), t_ms: 100 });
    w.send({ id, type: 'progress', poll: poll(7), t_ms: 200 });
    // Progress for an unknown id is ignored.
    w.send({ id: 99, type: 'progress', poll: poll(1), t_ms: 1 });
    w.send({ id, type: 'reply', ok: true, result: { ok: false, diagnostics: [] } });
    await expect(run).resolves.toEqual({ ok: false, diagnostics: [] });
    expect(seen).toEqual([3, 7]);
  });

  it('rejects a call the worker answers with an error', async () => {
    const w = new FakeWorker();
    const b = new EngineBridge(w);
    const t = b.trace(4);
    w.send({ id: 1, type: 'reply', ok: false, error: 'no run #4 in the last report' });
    await expect(t).rejects.toThrow('no run #4');
  });

  it('fails every pending and later call once the worker dies', async () => {
    const w = new FakeWorker();
    const b = new EngineBridge(w);
    const r = b.ready();
    const c = b.cancel();
    w.crash('boom');
    await expect(r).rejects.toThrow('engine worker failed: boom');
    await expect(c).rejects.toThrow('boom');
    await expect(b.validate('x')).rejects.toThrow('boom');
    expect(w.sent).toHaveLength(2);
  });

  it('dispose terminates the worker and rejects what was pending', async () => {
    const w = new FakeWorker();
    const b = new EngineBridge(w);
    const r = b.ready();
    b.dispose();
    await expect(r).rejects.toThrow('disposed');
    expect(w.terminated).toBe(true);
  });
});
