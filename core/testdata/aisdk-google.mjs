// The reference for what a Gemini model receives from the Vercel AI SDK:
// each request on stdin (one JSON line, {model, messages, tools} as
// internal/workload writes them: tools keyed by name, with
// inputSchema.jsonSchema) goes through streamText with the AI SDK's Google
// provider (npm ai and @ai-sdk/google, which make billed-deps installs in
// build/billed; its path is the first argument), whose fetch records the
// generateContent body instead of sending it; each body is printed as one
// line, with the request's model beside its fields.
//
//   node aisdk-google.mjs build/billed < requests.jsonl > bodies.jsonl
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const dir = process.argv[2];
const mod = (p) => import(pathToFileURL(join(dir, 'node_modules', p, 'dist', 'index.mjs')));
const { streamText, jsonSchema } = await mod('ai');
const { createGoogleGenerativeAI } = await mod('@ai-sdk/google');

for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  const req = JSON.parse(line);
  let body;
  const google = createGoogleGenerativeAI({
    apiKey: 'unused',
    fetch: async (_url, init) => {
      body = init.body;
      throw new Error('recorded, not sent');
    },
  });
  const tools = {};
  for (const [name, t] of Object.entries(req.tools || {})) {
    tools[name] = { description: t.description, inputSchema: jsonSchema(t.inputSchema.jsonSchema) };
  }
  const result = streamText({ model: google(req.model), messages: req.messages, tools, maxRetries: 0, onError() {} });
  for await (const _ of result.fullStream); // the error part ends it
  if (!body) throw new Error(`no request was made for ${req.model}`);
  process.stdout.write(JSON.stringify({ model: req.model, ...JSON.parse(body) }) + '\n');
}
