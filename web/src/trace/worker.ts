/// <reference lib="webworker" />
/**
 * The trace worker: decodes and indexes a packed trace and builds its
 * replay checkpoints off the page's main thread. Every array in the answer
 * is transferred, not copied, so receiving it costs the page nothing.
 *
 * Protocol (`protocol.ts`): in `{ id, buffer }` (buffer transferred); out `{ id, ok: true, buffer, analysis }` or
 * `{ id, ok: false, error }`.
 */
import { decode } from './codec';
import { analyze } from './index';
import type { WorkerReply, WorkerRequest } from './protocol';
import { transferablesOf } from './protocol';

const ctx = self as unknown as DedicatedWorkerGlobalScope;

ctx.onmessage = (ev: MessageEvent<WorkerRequest>) => {
  const req = ev.data;
  const id = req.id;
  try {
    const buffer = req.buffer;
    const trace = decode(buffer);
    const analysis = analyze(trace);
    const reply: WorkerReply = { id, ok: true, buffer, analysis };
    ctx.postMessage(reply, transferablesOf(buffer, analysis));
  } catch (e) {
    const reply: WorkerReply = { id, ok: false, error: e instanceof Error ? e.message : String(e) };
    ctx.postMessage(reply);
  }
};
