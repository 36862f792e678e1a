/**
 * Load a packed trace into a `ReplayModel`, decoding and indexing it in the
 * trace worker. The buffer is transferred to the worker and comes back
 * inside the model: the caller must not use it afterwards.
 */
import { decode, PackedTrace } from './codec';
import { analyze } from './index';
import { ReplayModel } from './model';
import type { WorkerReply, WorkerRequest } from './protocol';

let worker: Worker | null = null;
let nextId = 1;
const pending = new Map<number, { resolve: (m: ReplayModel) => void; reject: (e: Error) => void }>();

function traceWorker(): Worker {
  if (worker) return worker;
  const w = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });
  w.onmessage = (ev: MessageEvent<WorkerReply>) => {
    const r = ev.data;
    const p = pending.get(r.id);
    if (!p) return;
    pending.delete(r.id);
    if (r.ok) {
      const model = new ReplayModel(new PackedTrace(new Uint32Array(r.buffer)), r.analysis);
      p.resolve(model);
    } else p.reject(new Error(r.error));
  };
  w.onerror = (ev) => {
    for (const p of pending.values()) p.reject(new Error(ev.message || 'trace worker failed'));
    pending.clear();
  };
  worker = w;
  return w;
}

function ask(msg: WorkerRequest, transfer: Transferable[]): Promise<ReplayModel> {
  return new Promise((resolve, reject) => {
    pending.set(msg.id, { resolve, reject });
    traceWorker().postMessage(msg, transfer);
  });
}

/** Decode and index `buffer` off the main thread. */
export async function loadTrace(buffer: ArrayBuffer): Promise<ReplayModel> {
  if (typeof Worker === 'undefined') return loadTraceHere(buffer);
  return ask({ id: nextId++, buffer }, [buffer]);
}

/** Same, on the calling thread (tests, Node). */
export function loadTraceHere(buffer: ArrayBuffer): ReplayModel {
  const trace = decode(buffer);
  return new ReplayModel(trace, analyze(trace));
}
