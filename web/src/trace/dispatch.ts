/**
 * The one way to act on a trace event by its kind: a view (or the replay,
 * or `describe`) registers one handler per kind it cares about, keyed by the
 * kind's name from the engine's vocabulary, and gets back a function that
 * looks the event's kind code up in a table built once. Kinds without a
 * handler go to the caller's `otherwise`. No view switches on kind codes
 * itself, so a new kind is added in the vocabulary and in the handler
 * tables of the views that show it, nowhere else.
 *
 * Three shapes of event, one table each way:
 * - `onPacked`: event `i` of a packed trace (the replay's hot path: no object per event);
 * - `onEvent`: an event object with its raw words (`TraceEvent`, and views' own copies of it);
 * - `onNamed`: an event with its fields by name (`NamedEvent`), each handler narrowed to its kind.
 *
 * This file imports only the generated vocabulary (codec.ts uses it too).
 */
import { KIND, KIND_COUNT, type NamedEvent } from './vocabulary.gen';

/** A kind's name, as the engine's vocabulary spells it (`KIND`'s keys). */
export type KindName = keyof typeof KIND;

/** A handler per kind name, any subset of the vocabulary. */
export type ByKind<H> = { readonly [K in KindName]?: H };

/** Handlers indexed by kind code (undefined: no handler for that code). */
export type KindTable<H> = readonly (H | undefined)[];

/** The table of `handlers` by kind code: built once, read with one array access per event. */
export function kindTable<H>(handlers: ByKind<H>): KindTable<H> {
  const table: (H | undefined)[] = Array.from({ length: KIND_COUNT }, () => undefined);
  for (const name of Object.keys(handlers) as KindName[]) table[KIND[name]] = handlers[name];
  return table;
}

/** What `onPacked` needs of a packed trace: the kind code of event `i`. */
export interface KindsOf {
  kind(i: number): number;
}

/** A handler of event `i` of a packed trace, with the caller's context. */
export type PackedHandler<T extends KindsOf, C, R> = (trace: T, i: number, c: C) => R;

/** Runs the handler of event `i`'s kind, or `otherwise`. */
export function onPacked<T extends KindsOf, C, R>(
  handlers: ByKind<PackedHandler<T, C, R>>,
  otherwise: PackedHandler<T, C, R>,
): PackedHandler<T, C, R> {
  const table = kindTable(handlers);
  return (trace, i, c) => (table[trace.kind(i)] ?? otherwise)(trace, i, c);
}

/** A handler of an event object whose `kind` is the kind code. */
export type EventHandler<E extends { kind: number }, C, R> = (e: E, c: C) => R;

/** Runs the handler of the event's kind, or `otherwise`. */
export function onEvent<E extends { kind: number }, C, R>(
  handlers: ByKind<EventHandler<E, C, R>>,
  otherwise: EventHandler<E, C, R>,
): EventHandler<E, C, R> {
  const table = kindTable(handlers);
  return (e, c) => (table[e.kind] ?? otherwise)(e, c);
}

/** The named event of kind `K`. */
export type EventOf<K extends KindName> = Extract<NamedEvent, { kind: K }>;

/** A handler per kind name, each given the event narrowed to its kind. */
export type NamedHandlers<C, R> = { readonly [K in KindName]?: (e: EventOf<K>, c: C) => R };

/** Runs the handler of the named event's kind, or `otherwise`. */
export function onNamed<C, R>(
  handlers: NamedHandlers<C, R>,
  otherwise: (e: NamedEvent, c: C) => R,
): (e: NamedEvent, c: C) => R {
  return (e, c) => {
    // The mapped type pairs each name with its own event type: the handler found by `e.kind` takes `e`.
    const h = handlers[e.kind] as ((e: NamedEvent, c: C) => R) | undefined;
    return h ? h(e, c) : otherwise(e, c);
  };
}
