// Types of the npm package `tokenfit`: every function, and every JSON shape
// core answers with. src/worker.d.ts builds on it. The JSON requests and
// answers are src/schema.d.ts, which internal/cmd/genjson writes from core's
// Go types (make generate; a Go test fails when it is stale), re-exported
// here; this file declares the functions on them, and the shapes core reads
// by hand (other providers' requests, models' answer).

import type {
  Budget, BudgetRequest, CalibrateAnswer, CalibrateRequest, Calibration, CatalogInfo, ChatAnswer,
  ChatRequest as OpenAIChatRequest, ChunkAnswer, Cost, EncodingInfo, Estimator, LimitAnswer, Model, ModelInfo,
  ModelsRequest, Plan, PlanCall, Shape, Target, TokenizerInfo, TruncateAnswer, UsageAnswer, UsageRequest,
} from './schema.js';

export * from './schema.js';

// ---- errors ---------------------------------------------------------------

/**
 * The codes a {@link TokenfitError} carries: the module's error codes
 * (wasm/ABI.md), plus `not_initialized` for a call before {@link init}.
 */
export type ErrorCode =
  | 'internal'
  | 'invalid_argument'
  | 'invalid_handle'
  | 'invalid_table'
  | 'unknown_encoding'
  | 'encoding_not_loaded'
  | 'invalid_request'
  | 'invalid_token'
  | 'unknown_operation'
  | 'unsupported_tokenizer'
  | 'too_large'
  | 'not_initialized';

/**
 * Every error tokenfit throws. `code` is stable; `message` says what to do;
 * `field` names the request field at fault (a JSON path such as
 * `messages[2].content`) when there is one. A TokenfitError never ends the
 * instance: the next call answers normally. A value JSON cannot hold (NaN,
 * ±Infinity, a BigInt, a Map or a Set, a cycle, objects nested past
 * JSON.stringify's stack) is `invalid_argument`, as is a wrong JavaScript
 * type; an exception from the caller's own getter or toJSON propagates.
 * (Lone surrogates in strings are not errors: they are read as U+FFFD.)
 */
export class TokenfitError extends Error {
  constructor(code: ErrorCode, message: string, field?: string);
  readonly name: 'TokenfitError';
  readonly code: ErrorCode;
  readonly field?: string;
}

// ---- loading ----------------------------------------------------------------

/** An encoding tokenfit counts exactly. */
export type EncodingName = 'o200k_base' | 'cl100k_base' | 'p50k_base' | 'r50k_base';

/** The encodings tokenfit knows, in core's order. */
export const ENCODINGS: readonly EncodingName[];

/** Bytes, or where to get them: a URL (absolute, or relative to the page), a fetch Response. */
export type Source = string | URL | Response | ArrayBuffer | ArrayBufferView;

/** A parsed Hugging Face tokenizer.json. */
export type TokenizerJSON = { model: object; [key: string]: unknown };

/** A WebAssembly module: compiled already (what workerd and Vercel Edge give an imported .wasm), or its bytes. */
export type ModuleSource = Source | WebAssembly.Module;

/** What {@link init} takes. Every field is optional. */
export interface InitOptions {
  /**
   * The module. Defaults to the package's own `tokenfit-nohf.wasm` (the
   * full module without the tokenizer.json loader; `tokenfit.wasm` with
   * `tokenizers`, `tokenfit-lite.wasm` with `lite`), read from the package directory in
   * Node, Deno and Bun, fetched beside the package's code in browsers.
   * At the edge (workerd, Vercel Edge), which cannot compile bytes at run
   * time, import the .wasm and pass the `WebAssembly.Module`. The GOOS=js
   * module works too, once Go's wasm_exec.js is loaded.
   */
  module?: ModuleSource | Promise<ModuleSource>;
  /**
   * `true`: use the lean module only (counting only: countTokens, encode,
   * decode, withinLimit, truncate, liveCounter by encoding; about a third
   * smaller) when `module` is not given. `false`: the full module from the
   * start. Defaults to the full module in Node, Deno and Bun, and in pages
   * and workers to the lean module moving to the full one when a call
   * needs it ({@link Tokenfit.ready}).
   */
  lite?: boolean;
  /**
   * Start with the full module that has the tokenizer.json loader
   * (`tokenfit.wasm`, 80 KB more gzip) when `module` is not given. Without
   * it, the first {@link Tokenfit.loadTokenizer} fetches that module and
   * moves the instance to it (the encodings, registered models and live
   * counters come along); pass it when the app loads a tokenizer.json at
   * start anyway. Not with `lite`.
   */
  tokenizers?: boolean;
  /**
   * Encodings to load now: names (fetched from `tables`), or a map from
   * name to its table's bytes or URL. Defaults: none in Node, Deno and Bun
   * (each loads from disk when first needed); `['o200k_base']` elsewhere.
   */
  encodings?: EncodingName[] | Partial<Record<EncodingName, Source | Promise<Source>>>;
  /** Where the tables (`<name>.tkt`) are, as a base URL. Defaults to the package's `dist/tables/`. */
  tables?: string | URL;
  /**
   * Load the model catalog now: a source (in a bundled app
   * `catalog()` of `import catalog from 'tokenfit/assets/catalog'`), or `true`
   * in Node, Deno and Bun (the package's `dist/tables/catalog.json`, which
   * they also load by themselves when first needed). See {@link Tokenfit.loadCatalog}.
   */
  catalog?: boolean | Source | Promise<Source>;
  /**
   * In a page or a worker of `tokenfit`'s default entry, with the package's
   * own module and o200k_base from its own table: after the first count, in
   * an idle moment, save the memory of a second instance that has done
   * nothing but start and load that table (never the one that counted the
   * page's text) to Cache Storage, compressed, and start the next visit's
   * `init()` from it instead of loading the table. An image that is not the
   * module's, cut, corrupted or stale is ignored and replaced; without Cache
   * Storage (an insecure origin, some private modes) or with a full quota,
   * the start is today's. `false`: never read or save one. Defaults to true
   * (Node, Deno and Bun start from the image the package ships instead).
   * With your own `module` (a tokenfit module: it carries its identity)
   * and o200k_base given in `encodings` as bytes or a URL, `true` saves and
   * restores one the same way, under one key for such modules.
   */
  savedImage?: boolean;
}

/**
 * Starts tokenfit: compiles and starts the module and loads the encodings
 * asked for. In Node, Deno and Bun `await init()` needs no options. One
 * instance also answers the top-level functions
 * (`import { countTokens } from 'tokenfit'`): the full module's when one has
 * been made, else the lean one's; among several of one kind, the one whose
 * `init()` was called first — never whichever finished starting first.
 * `init()` without options returns the same instance every time (until it
 * fails: a module out of memory throws `internal` on every later call, and
 * the next `init()` starts another, which the top-level functions then
 * use); with options, a new one. A module or table that cannot be fetched
 * (the fetch fails, or answers an HTTP error), and a module that is not
 * tokenfit's (HTML served for its URL, cut bytes, another WebAssembly
 * module), reject with `invalid_argument`, the platform's error as `cause`.
 * Cost: compiling and starting the module (about 50 ms in Node) and loading
 * each table (o200k_base: about 30 ms), once.
 */
export function init(options?: InitOptions): Promise<Tokenfit>;

// ---- the API ----------------------------------------------------------------

// Chat requests: OpenAI's shapes.

/**
 * An OpenAI chat request, with the fields tokenfit reads beside it (core's
 * chatExtra and chatCost): other fields are ignored, they cost no tokens.
 */
export interface ChatRequest extends OpenAIChatRequest {
  /** tokenfit's own: scales estimated counts (see {@link Tokenfit.calibrate}). */
  calibration?: Calibration;
  /** tokenfit's own: how many of the request's tokens the provider reads from its prompt cache (the cost's cached input). */
  cachedTokens?: number;
  /** The output limit the cost prices (max_completion_tokens, max_output_tokens and Gemini's generationConfig.maxOutputTokens too); absent, the model's response reserve. */
  max_tokens?: number;
  max_completion_tokens?: number;
}

/** An OpenAI Responses API request (the body of POST /v1/responses). */
export interface ResponsesRequest {
  model?: string;
  instructions?: string;
  /** A string (one user message) or input items: messages, function_call, function_call_output, reasoning. */
  input: string | Record<string, unknown>[];
  tools?: Record<string, unknown>[];
  tool_choice?: 'none' | 'auto' | 'required' | Record<string, unknown>;
  text?: { format?: { type: 'text' | 'json_object' | 'json_schema'; name?: string; description?: string; schema?: unknown; strict?: boolean } };
  calibration?: Calibration;
  [field: string]: unknown;
}

/** A Gemini generateContent request, with tokenfit's `model` beside it (Gemini names the model in the URL). */
export interface GeminiRequest {
  model?: string;
  contents: { role?: 'user' | 'model'; parts: Record<string, unknown>[] }[];
  systemInstruction?: string | { parts: { text?: string }[] };
  tools?: Record<string, unknown>[];
  toolConfig?: { functionCallingConfig?: { mode?: string; allowedFunctionNames?: string[] } };
  calibration?: Calibration;
  [field: string]: unknown;
}

/** The Vercel AI SDK's generateText input: ModelMessage[] with system, tools (keyed by name, JSON Schema) and toolChoice. */
export interface AISDKRequest {
  model?: string;
  system?: string;
  messages: { role: 'system' | 'user' | 'assistant' | 'tool'; content: string | Record<string, unknown>[] }[];
  tools?: Record<string, { description?: string; inputSchema?: unknown }>;
  toolChoice?: 'auto' | 'none' | 'required' | { type: 'tool'; toolName: string };
  /** The language model's call option for structured output (generateObject's schema). */
  responseFormat?: { type: 'text' } | { type: 'json'; schema?: unknown; name?: string; description?: string };
  /**
   * Which OpenAI API an OpenAI model is called through: `responses` (the
   * SDK's default, `openai(...)`) or `chat` (`openai.chat(...)`).
   */
  api?: 'chat' | 'responses';
  calibration?: Calibration;
  [field: string]: unknown;
}

/** A chat request in any shape countChat reads; `shape` names it when its fields alone do not. */
export type AnyChatRequest = (ChatRequest | AnthropicRequest | GeminiRequest | AISDKRequest | ResponsesRequest) & { shape?: Shape };

/** A budget's alert level. */
export type AlertLevel = Budget['alert'];

/** What a model that takes no chat is for. */
export type ModelKind = NonNullable<Model['kind']>;

/** models' answer: one model (asked by name; an unknown one falls back) or all that pass the filters, and where the registry comes from. */
export interface ModelsAnswer {
  model?: ModelInfo;
  models?: ModelInfo[];
  estimators?: Record<string, Estimator>;
  catalog: CatalogInfo;
}

/** The shape of registerModels requests (and of core/registry/overrides.json's models and estimators). */
export interface RegistryFile {
  estimators?: Record<string, Estimator>;
  models?: Model[];
}

/** Truncation's options: the target, and which end to keep. */
export interface TruncateOptions extends Target {
  keep?: 'start' | 'end';
}

/** Chunking's options: the target, and how many tokens consecutive chunks share. */
export interface ChunkOptions extends Target {
  overlap?: number;
}

/**
 * An exact token count kept up to date while a text is edited, for a
 * composer that shows the count on every keystroke. Offsets are UTF-16 code
 * units, as text areas give them (selectionStart, selectionEnd). An edit
 * costs time in proportion to the edit and the pieces around it, not to the
 * text (microseconds in a 1 MB document). Released when garbage-collected;
 * {@link LiveCounter.dispose} releases it at once.
 */
export interface LiveCounter {
  /** The encoding it counts with. */
  readonly encoding: string;
  /**
   * Deletes `deleteCount` UTF-16 units at `at`, inserts `insert` there, and
   * returns the new count. An offset outside the text or between the halves
   * of a surrogate pair throws (invalid_request) and changes nothing.
   */
  edit(at: number, deleteCount?: number, insert?: string): number;
  /**
   * Makes the text `text` by one edit found from the common start and end
   * of the old text and the new one (what an `input` event handler has), and
   * returns the count. `caret`, where the inserted text ends in `text` (the
   * text area's `selectionEnd` after the input), makes a keystroke in a 1 MB
   * text cost O(edit) instead of O(n); a wrong caret only costs the O(n)
   * comparison, never a wrong count. Cost: the comparison, plus the edit.
   */
  update(text: string, caret?: number): number;
  /** Replaces the whole text and returns its count. O(n). */
  reset(text: string): number;
  /** The current count. O(1). */
  count(): number;
  /** The current text. O(n). */
  text(): string;
  /** Releases the counter now; later calls throw. */
  dispose(): void;
}

/**
 * A started tokenfit: every call is synchronous, and every function keeps
 * working when destructured (`const { countTokens } = tf`).
 */
export interface Tokenfit {
  /**
   * The module it runs now: the full wasip1 reactor, the lean one, or the
   * GOOS=js module. A page's default `init()` starts the lean one and
   * becomes `'wasip1'` once it has moved to the full one ({@link ready}).
   */
  readonly module: 'wasip1' | 'lite' | 'js';

  /**
   * Resolves once every operation answers. A page's (or a worker's)
   * `init()` without `module`, `lite` or `tokenizers` starts the lean
   * module, which counts at once (countTokens, encode, decode,
   * withinLimit, truncate and liveCounter by encoding), so that a page that
   * only counts downloads nothing more; a call that needs the full module
   * (countChat, calculateBudget, planInjection, chunk, models,
   * registerModels, a count by model) starts the move to it and, until the
   * move is done, throws `not_initialized` saying to await this. The move
   * keeps loaded encodings and live counters, and every count made while it
   * runs is answered by the lean module. Resolves at once for any other
   * instance (`init({ lite: false })` starts with the full module; Node,
   * Deno and Bun always do); rejects, leaving the instance counting, when
   * the full module cannot be had (the next call tries again). The Worker
   * helper awaits it itself.
   */
  ready(): Promise<void>;

  /**
   * The number of tokens in `text`: exact for OpenAI encodings, an estimate
   * for models without a public tokenizer. Special-token text such as
   * `<|endoftext|>` counts as ordinary text. Cost: O(n), 10 to 20 MB/s in V8 depending on the text, and
   * a few µs per call. A text of more than a million UTF-16 units counted with a built-in encoding is
   * written to the module in parts (never copied in whole, and not bound by the module's 1 GiB
   * input limit); a stretch of more than 256 MiB with no place to split between tokens (one run of
   * letters, whitespace or symbols) is then `invalid_argument`.
   */
  countTokens(text: string, target?: Target): number;

  /** What a chat request costs, as the API bills `prompt_tokens` (tools included). Cost: O(n). Full module. */
  countChat(request: AnyChatRequest): ChatAnswer;

  /** A model-aware context budget with reserves, caps, history pruning, alerts and a summarization trigger. Full module. */
  calculateBudget(request: BudgetRequest): Budget;

  /** Which ranked items go into the prompt at which tier, and the compiled text. Full module. */
  planInjection(request: PlanCall): Plan;

  /** The token ids of `text`. Cost: O(n). */
  encode(text: string, target?: Target): number[];

  /** The text of token ids, as `new TextDecoder().decode()` of tiktoken's `decode` gives it: ids cut inside a character give one U+FFFD per cut character. Cost: O(ids). */
  decode(ids: readonly number[] | Uint32Array, target?: Target): string;
  /** With `{ valid: true }`: the text and whether the ids end (and start) on whole characters, for streaming decoders. */
  decode(ids: readonly number[] | Uint32Array, target: Target | undefined, options: { valid: true }): { text: string; valid: boolean };

  /**
   * Whether `text` has at most `limit` tokens; stops counting once past it, so it costs what it read.
   * A text of more than 65,536 UTF-16 units checked with a built-in encoding (or a model that counts
   * with one) is written to the module in parts, and no further than the limit needs: the cost is in
   * proportion to `limit`, not to the text. The answer is the same either way.
   */
  withinLimit(text: string, limit: number, target?: Target): LimitAnswer;

  /** At most `maxTokens` tokens of `text`, from its start (default) or end, cut at a token boundary. Cost: O(n). */
  truncate(text: string, maxTokens: number, options?: TruncateOptions): TruncateAnswer;

  /** `text` in chunks of at most `maxTokens` tokens (a single character of more tokens is a chunk of its own), cut at the best boundary near the limit. Full module. */
  chunk(text: string, maxTokens: number, options?: ChunkOptions): ChunkAnswer;

  /** Folds one reported usage into a calibration (carry it to the next call as JSON). Full module. */
  calibrate(request: CalibrateRequest): CalibrateAnswer;

  /**
   * Every model in the registry, or those that pass the request's filters
   * (provider, family, kind, minWindow), or one by name, resolved (unknown:
   * the fallback); with `catalog`, the sources and whether the catalog is
   * loaded. Listing every model loads the catalog first where it can be
   * read now (Node, Deno, Bun). Full module.
   */
  models(request?: ModelsRequest): ModelsAnswer;

  /** Adds or replaces models and estimators (the shape of core/registry/overrides.json). Full module. */
  registerModels(registry: RegistryFile | string): { models: number };

  /**
   * What a finished or aborted request cost: its model and the usage object
   * the provider reported, as sent (OpenAI's, Anthropic's, Gemini's
   * `usageMetadata`, the AI SDK's). Full module.
   */
  priceUsage(request: UsageRequest): UsageAnswer;

  /**
   * Loads the model catalog (models.dev's models beyond the built-in rows,
   * with their windows and prices; about 90 KB of gzip) under the built-in
   * rows. In browsers and at the edge give its source: `catalog()` of
   * `import catalog from 'tokenfit/assets/catalog'` (a bundler then ships
   * `dist/tables/catalog.json` with the app), or its URL; without one there,
   * `invalid_argument`. In Node, Deno and Bun the default is the package's
   * file, which they also load by themselves the first time an answer would
   * fall back or every model is listed. Full module.
   */
  loadCatalog(source?: Source | Promise<Source>): Promise<CatalogInfo>;

  /** The encodings tokenfit knows, and whether each is loaded. */
  encodings(): EncodingInfo[];

  /** core's version. Full module. */
  version(): string;

  /**
   * A live counter over `text` (default empty) with an encoding (or an
   * exact model's encoding; the lean module takes encodings only). An
   * instance keeps at most 1,024 live counters at once (core/engine's
   * MaxLiveCounters); past them this throws invalid_request until one is
   * disposed. A dropped counter is freed only after a garbage collection,
   * which a synchronous loop never gives: dispose() counters you are done
   * with.
   */
  liveCounter(target?: Target, text?: string): LiveCounter;

  /**
   * Loads an encoding's table from `source` (bytes, a URL, a Response), or
   * from the package's tables (or init's `tables`) when none is given.
   * Browsers and edge runtimes need it for encodings not loaded by init;
   * Node loads them on first use by itself. Loading a loaded encoding does
   * nothing; loads of one encoding from the default place while one is under
   * way share its fetch. A table of another encoding, or bytes that are no
   * table, reject with invalid_table and leave every loaded encoding as it
   * was.
   */
  loadEncoding(name: EncodingName, source?: Source | Promise<Source>): Promise<void>;

  /**
   * Loads a Hugging Face tokenizer.json (an open-weight model's: Llama 3.x,
   * Qwen 3, DeepSeek V3, gpt-oss, Gemma 3), or the compact table
   * `tokenfit convert` makes of one, under `name`: a URL, a Response, bytes
   * or the parsed JSON. Afterwards every function takes `{ encoding: name }`
   * and counts exactly as Hugging Face's `encode(text,
   * add_special_tokens=false)`: an added token's text counts as that token.
   * Loading under a loaded name replaces it. A damaged file rejects with
   * invalid_table, one using something tokenfit does not reproduce exactly
   * with unsupported_tokenizer, and the instance keeps answering. Full
   * module (the lean one rejects with unknown_operation). An instance of
   * the default module (`tokenfit-nohf.wasm`, no loader) first fetches
   * `tokenfit.wasm` and moves to it: the encodings, registered models and
   * live counters come along, every call stays synchronous and answers
   * from the old module until the move, and if the module cannot be had
   * the promise rejects (the instance keeps answering). With
   * `tokenfit/explicit`, start with `module: full()` instead. The package
   * ships the tables of Qwen 3, gpt-oss, DeepSeek V3, Mistral 7B v0.1 and
   * v0.3, one import each: `import qwen3 from 'tokenfit/tokenizers/qwen3'`,
   * then `loadTokenizer('hf:Qwen/Qwen3-8B', qwen3())` makes the registry's
   * Qwen 3 rows exact; and Gemini's (Gemma 3's, under the Gemma Terms of
   * Use): `loadTokenizer('gemini', gemini())` with
   * `import gemini from 'tokenfit/tokenizers/gemini'` makes every Gemini
   * model's text counts Google's local count.
   */
  loadTokenizer(name: string, source: Source | TokenizerJSON | Promise<Source | TokenizerJSON>): Promise<TokenizerInfo>;

  /**
   * The bytes of the module's linear memory: about 13 MB with o200k_base
   * loaded. WebAssembly memory only grows, and a huge input grows it for
   * good (a 100 MB text: about 330 MB), so an app that met one can start
   * another instance with {@link init} and drop this one. Cost: O(1).
   */
  memoryBytes(): number;

  /**
   * Runs any operation of core's JSON API by name (wasm/ABI.md) and returns
   * its answer, for operations and fields this wrapper does not spell out
   * (countTokens' upperBound, for one). Full module.
   */
  call(op: string, request?: object | string): unknown;
}

// ---- the provider counter ------------------------------------------------------

/** A content block of Anthropic's Messages API: text, image, tool_use, tool_result, document, thinking… */
export interface AnthropicBlock {
  type: string;
  [field: string]: unknown;
}

export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: string | AnthropicBlock[];
}

/** A client tool (name, description, input_schema) or a server tool (type, name, …). */
export interface AnthropicTool {
  name: string;
  description?: string;
  /** A JSON Schema object. */
  input_schema?: unknown;
  type?: string;
  [field: string]: unknown;
}

/**
 * A request in the shape of Anthropic's Messages API. The fields
 * count_tokens takes are sent (model, messages, system, tools, tool_choice,
 * thinking, output_config, cache_control, mcp_servers, context_management);
 * messages.create's others (max_tokens, temperature, stream, …) may be
 * present and are not sent, so the request you will create can be passed as
 * it is.
 */
export interface AnthropicRequest {
  model: string;
  messages: AnthropicMessage[];
  system?: string | AnthropicBlock[];
  tools?: AnthropicTool[];
  tool_choice?: { type: 'auto' | 'any' | 'tool' | 'none'; name?: string; disable_parallel_tool_use?: boolean };
  thinking?: unknown;
  /** tokenfit's own, never sent: scales the estimate a fallback answers (see {@link Tokenfit.calibrate}). */
  calibration?: Calibration;
  [field: string]: unknown;
}

/** What the counter hands its fetch: always a POST of JSON, never following redirects. */
export interface ProviderRequestInit {
  method: 'POST';
  headers: Record<string, string>;
  body: string;
  signal: AbortSignal;
  redirect: 'manual';
}

/** What the counter reads of a fetch's answer (a Response has it). */
export interface ProviderResponse {
  status: number;
  type?: string;
  text(): Promise<string>;
}

/** {@link providerCounter}'s options. Only fetch and apiKey are required. */
export interface ProviderCounterOptions {
  /**
   * Whose count endpoint to ask: `anthropic` (the default:
   * `POST /v1/messages/count_tokens`, an {@link AnthropicRequest}), `gemini`
   * (`models/{model}:countTokens`, a {@link GeminiRequest}) or `openai`
   * (`POST /v1/responses/input_tokens`, a {@link ResponsesRequest}: the
   * fields it takes are sent, responses.create's others — stream, store,
   * include, max_output_tokens… — are not).
   */
  provider?: 'anthropic' | 'gemini' | 'openai';
  /**
   * The function that makes the request: `globalThis.fetch`, or your own
   * (a proxy, tracing, a test double). tokenfit never makes a request of
   * its own.
   */
  fetch: (url: string, init: ProviderRequestInit) => Promise<ProviderResponse>;
  /**
   * Sent as x-api-key (Anthropic), x-goog-api-key (Gemini) or a bearer
   * token (OpenAI), to baseURL only (redirects are not followed). A key
   * with a character no HTTP header can carry (CR, LF, NUL…) is refused
   * without quoting it; every message the counter gives (fallbackReason
   * included) has the key, and the values of headers named like a secret,
   * replaced by "[redacted]".
   */
  apiKey: string;
  /**
   * Defaults to https://api.anthropic.com (https://generativelanguage.googleapis.com,
   * https://api.openai.com); the request goes to
   * `${baseURL}/v1/messages/count_tokens` (…`/v1beta/models/{model}:countTokens`,
   * …`/v1/responses/input_tokens`). User-info, a query or a fragment
   * is refused (`https://api.anthropic.com@evil.example` is evil.example).
   */
  baseURL?: string | URL;
  /** How long the provider has, answer included, before the estimate answers instead. Defaults to 5,000. */
  timeoutMs?: number;
  /** The anthropic-version header. Defaults to 2023-06-01. */
  anthropicVersion?: string;
  /**
   * More headers: anthropic-beta, or, in a browser,
   * `anthropic-dangerous-direct-browser-access: 'true'`. x-api-key,
   * anthropic-version and content-type are the counter's own.
   */
  headers?: Record<string, string>;
  /** The instance that estimates (init()'s, or a worker's). Defaults to the instance the top-level functions use (see init). */
  tf?: { countChat(request: ChatRequest): ChatAnswer | Promise<ChatAnswer> };
}

/** Why the provider's count is missing. Nothing is retried. */
export interface FallbackReason {
  /**
   * `timeout`: no answer within timeoutMs (the request is aborted);
   * `network`: the fetch failed; `redirect`: the provider answered a
   * redirect, not followed; `http`: a status outside 2xx (400, 401, 429,
   * 500, 529…); `malformed`: not JSON, or no integer input_tokens ≥ 0.
   */
  code: 'timeout' | 'network' | 'redirect' | 'http' | 'malformed';
  message: string;
  /** The HTTP status, when there was an answer. */
  status?: number;
  /** The provider's error type (`rate_limit_error`, `overloaded_error`, …), when it said one. */
  type?: string;
}

/** What the provider counted: exact. */
export interface ProviderCountExact {
  source: 'provider';
  exact: true;
  /** The provider's input_tokens. */
  tokens: number;
  upperBound: number;
  model: string;
  /** tokenfit's local estimate of the same request, uncalibrated: with `tokens`, the pair for {@link Tokenfit.calibrate}. */
  estimate: number;
}

/** tokenfit's local estimate, because the provider did not answer with a count. */
export interface ProviderCountEstimate {
  source: 'estimate';
  exact: false;
  /** The estimate (countChat's total for the request in OpenAI's shape), calibrated when the request carries a calibration. */
  tokens: number;
  /** What the provider's count will not exceed by the estimator's error bound. */
  upperBound: number;
  model: string;
  /** The estimate uncalibrated: `tokens` itself unless the request carries a calibration. */
  estimate: number;
  fallbackReason: FallbackReason;
}

/** A count, and which one answered: `source` says, and `exact` with it. */
export type ProviderCount = ProviderCountExact | ProviderCountEstimate;

export interface ProviderCounter {
  /** Where the requests (and the API key) go. */
  readonly endpoint: string;
  /**
   * The request's input tokens from the provider's count endpoint, or, when
   * it fails in any way, the local estimate with the reason. One request,
   * no retries; settles within timeoutMs (plus the estimate's microseconds).
   * Throws (invalid_argument, or the estimate's own error) only for a
   * request that is not one, never for the provider.
   */
  countChat(request: AnthropicRequest | GeminiRequest | ResponsesRequest): Promise<ProviderCount>;
}

/**
 * An exact counter by the provider's count endpoint (Anthropic's
 * `POST /v1/messages/count_tokens`, Gemini's countTokens, OpenAI's
 * `POST /v1/responses/input_tokens`), through the `fetch` you pass. Opt-in and off the hot path: a network round trip
 * per count, and a request only when countChat is called. Bad options throw
 * TokenfitError invalid_argument here.
 */
export function providerCounter(options: ProviderCounterOptions): ProviderCounter;

// ---- the top-level functions: one instance's (see init) ----------------------
// Each throws TokenfitError 'not_initialized' until init() has made an instance
// (loadEncoding rejects with it).

/** {@link Tokenfit.countTokens} of the instance {@link init} binds. */
export function countTokens(text: string, target?: Target): number;
/** {@link Tokenfit.countChat} of the instance {@link init} binds. */
export function countChat(request: AnyChatRequest): ChatAnswer;
/** {@link Tokenfit.calculateBudget} of the instance {@link init} binds. */
export function calculateBudget(request: BudgetRequest): Budget;
/** {@link Tokenfit.planInjection} of the instance {@link init} binds. */
export function planInjection(request: PlanCall): Plan;
/** {@link Tokenfit.encode} of the instance {@link init} binds. */
export function encode(text: string, target?: Target): number[];
/** {@link Tokenfit.decode} of the instance {@link init} binds. */
export function decode(ids: readonly number[] | Uint32Array, target?: Target): string;
export function decode(ids: readonly number[] | Uint32Array, target: Target | undefined, options: { valid: true }): { text: string; valid: boolean };
/** {@link Tokenfit.withinLimit} of the instance {@link init} binds. */
export function withinLimit(text: string, limit: number, target?: Target): LimitAnswer;
/** {@link Tokenfit.truncate} of the instance {@link init} binds. */
export function truncate(text: string, maxTokens: number, options?: TruncateOptions): TruncateAnswer;
/** {@link Tokenfit.chunk} of the instance {@link init} binds. */
export function chunk(text: string, maxTokens: number, options?: ChunkOptions): ChunkAnswer;
/** {@link Tokenfit.calibrate} of the instance {@link init} binds. */
export function calibrate(request: CalibrateRequest): CalibrateAnswer;
/** {@link Tokenfit.models} of the instance {@link init} binds. */
export function models(request?: ModelsRequest): ModelsAnswer;
export function priceUsage(request: UsageRequest): UsageAnswer;
export function loadCatalog(source?: Source | Promise<Source>): Promise<CatalogInfo>;
/** {@link Tokenfit.registerModels} of the instance {@link init} binds. */
export function registerModels(registry: RegistryFile | string): { models: number };
/** {@link Tokenfit.encodings} of the instance {@link init} binds. */
export function encodings(): EncodingInfo[];
/** {@link Tokenfit.version} of the instance {@link init} binds. */
export function version(): string;
/** {@link Tokenfit.liveCounter} of the instance {@link init} binds. */
export function liveCounter(target?: Target, text?: string): LiveCounter;
/** {@link Tokenfit.loadEncoding} of the instance {@link init} binds. */
export function loadEncoding(name: EncodingName, source?: Source | Promise<Source>): Promise<void>;
/** {@link Tokenfit.loadTokenizer} of the instance {@link init} binds. */
export function loadTokenizer(name: string, source: Source | TokenizerJSON | Promise<Source | TokenizerJSON>): Promise<TokenizerInfo>;
