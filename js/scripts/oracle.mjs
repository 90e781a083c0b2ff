// The reference oracle: the official tiktoken (OpenAI's Rust core compiled to
// WebAssembly, npm `tiktoken`) answering over stdin/stdout, one JSON object
// per line, so that Go tests can compare the engine with it.
//
//   request:  {"encoding": "o200k_base", "text": "..."}
//   answer:   {"ids": [...]}            or {"error": "..."}
//
// Special-token text is encoded as ordinary text (encode_ordinary).
import { get_encoding } from 'tiktoken';
import { createInterface } from 'node:readline';

const encoders = new Map();
function encoder(name) {
  let e = encoders.get(name);
  if (!e) {
    e = get_encoding(name);
    encoders.set(name, e);
  }
  return e;
}

const out = [];
const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on('line', (line) => {
  let answer;
  try {
    const req = JSON.parse(line);
    answer = { ids: Array.from(encoder(req.encoding).encode_ordinary(req.text)) };
  } catch (err) {
    answer = { error: String(err && err.message || err) };
  }
  out.push(JSON.stringify(answer));
  if (out.length >= 256) flush();
});
rl.on('close', flush);
// Flush when the input pauses too, so a client that waits for each answer works.
setInterval(() => { if (out.length) flush(); }, 1).unref();
function flush() {
  if (out.length) {
    process.stdout.write(out.join('\n') + '\n');
    out.length = 0;
  }
}
