// Types of `tokenfit/edge`: the JSON API over HTTP as a fetch handler, for
// Cloudflare Workers, Deno, Bun and Node. Built on index.d.ts, the one place
// for the types.

import type { InitOptions } from './index.js';

/** What {@link createHandler} takes. Every field is optional. */
export interface HandlerOptions {
  /**
   * What the handler's one instance starts with, as {@link init} takes it.
   * In Node, Deno and Bun nothing is needed; in a Worker pass the module
   * (a WebAssembly.Module) and the tables you import, since a Worker
   * fetches nothing of its own.
   */
  init?: InitOptions;
  /** The largest request body in bytes (larger: 413, unread). Default 8 MiB. */
  maxBodyBytes?: number;
  /**
   * How many operations the handler runs at once, and how many request body
   * bytes it holds at once (taken as they arrive); a request past either
   * gets 503 `overloaded` with `Retry-After`. `/healthz` counts in neither.
   * Defaults 64 and four bodies of `maxBodyBytes`; `maxInFlightBytes` is at
   * least `maxBodyBytes`. The limits of `tokenfit serve`.
   */
  maxInFlight?: number;
  maxInFlightBytes?: number;
  /**
   * The instance memory in bytes past which the handler retires its
   * instance after a request (the next request starts another; the memory
   * goes back once the old one is collected). Default 256 MiB, the Go
   * host's.
   */
  maxInstanceMemory?: number;
  /**
   * The origins whose pages may call the handler (CORS), such as
   * `['https://app.example.com']`, or `['*']` for any. Default none: CORS off.
   */
  corsOrigins?: readonly string[];
  /** When set, /v1/ requests need `Authorization: Bearer <token>` (else 401). */
  token?: string;
  /** Where an internal error's details go (the client sees none). Default console.error. */
  log?: (detail: string) => void;
}

/**
 * The fetch handler of the JSON API: `POST /v1/{operation}` with core's JSON
 * in and out, `GET /healthz`, errors as `{"error": {code, message, field}}`
 * with the statuses of `tokenfit serve` (400 bad request, 401 without the
 * token, 404 unknown route, 405 another method with Allow, 413 over the body
 * limit or a budget (`too_large`), 415 unless application/json, 500
 * internal, 503 past the limits in flight with Retry-After). Routes are read
 * from the request's URL as the runtime parsed it, so `/v1%2FcountTokens` is
 * no route. One instance per handler, started by the first request and
 * retired when a request grows it past `maxInstanceMemory`; a client that
 * goes away while it sends its body costs no log line and no new instance.
 * Make the handler once, at the top of the module:
 *
 *     export default { fetch: createHandler({ init: { module, encodings } }) };
 */
export function createHandler(options?: HandlerOptions): (request: Request) => Promise<Response>;

/**
 * Node only: adapts a fetch handler to node:http's request listener
 * (its IncomingMessage and ServerResponse).
 *
 *     http.createServer(nodeListener(createHandler())).listen(8787, '127.0.0.1');
 */
export function nodeListener(
  fetch: (request: Request) => Promise<Response>,
): (req: unknown, res: unknown) => Promise<void>;
