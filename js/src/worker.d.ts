// Types of `tokenfit/worker`: tokenfit running off the main thread, with the
// same API returning promises. Built on index.d.ts, the one place for the
// types.

import type { InitOptions, Tokenfit, Target } from './index.js';

/** A function of {@link Tokenfit}, answering through a promise. */
type Async<F> = F extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never;

/** A {@link LiveCounter} in the worker: each call a promise, answered in order. */
export interface AsyncLiveCounter {
  readonly encoding: string;
  /** Deletes `deleteCount` UTF-16 units at `at`, inserts `insert`; the new count. */
  edit(at: number, deleteCount?: number, insert?: string): Promise<number>;
  /** Makes the text `text` by one edit found from the common start and end; the count. */
  update(text: string, caret?: number): Promise<number>;
  /** Replaces the whole text; its count. */
  reset(text: string): Promise<number>;
  /** The current count. */
  count(): Promise<number>;
  /** The current text. */
  text(): Promise<string>;
  /** The count of the latest call answered, without a round trip to the worker. */
  lastCount(): number;
  /** Releases the counter in the worker (garbage collection does too). */
  dispose(): Promise<void>;
}

/**
 * tokenfit's API running in a worker: every function of {@link Tokenfit},
 * returning a promise, answered in the order called. Functions keep working
 * when destructured.
 */
export type TokenfitWorker = {
  readonly [K in Exclude<keyof Tokenfit, 'module' | 'liveCounter'>]: Async<Tokenfit[K]>;
} & {
  /** The module the worker runs. */
  readonly module: Tokenfit['module'];
  /** A live counter kept in the worker. */
  liveCounter(target?: Target, text?: string): Promise<AsyncLiveCounter>;
  /** Stops the worker; later calls reject. */
  terminate(): void;
};

/** {@link createWorker}'s options: init's, plus the worker to use. */
export interface WorkerOptions extends InitOptions {
  /**
   * A worker running tokenfit's worker entry, for bundlers that want to
   * create it themselves: in browsers
   * `new Worker(new URL('tokenfit/worker-entry', import.meta.url), { type: 'module' })`.
   * URLs among the options are sent as strings, Responses as their bytes.
   */
  worker?: Worker | NodeWorker;
}

/** What tokenfit/worker uses of a Node worker_threads Worker. */
export interface NodeWorker {
  postMessage(message: unknown): void;
  on(event: 'message' | 'error', listener: (value: any) => void): unknown;
  terminate(): unknown;
  ref(): unknown;
  unref(): unknown;
}

/**
 * Starts tokenfit in a module worker (a worker thread in Node) and resolves
 * once it is ready: for pages that count large documents while the user
 * types. Options are {@link init}'s, and resolve in the worker (relative
 * URLs against the worker's script).
 */
export function createWorker(options?: WorkerOptions): Promise<TokenfitWorker>;
