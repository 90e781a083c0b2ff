// The reference oracle: the official tiktoken (OpenAI's Rust core compiled to
// WebAssembly, npm `tiktoken`) answering over stdin/stdout, one JSON object
// per line, so that Go tests can compare the engine with it.
//
//   request:  {"encoding": "o200k_base", "text": "..."}
//   answer:   {"ids": [...]}            or {"error": "..."}
//
// Special-token text is encoded as ordinary text (encode_ordinary).
import { get_encoding } from 'tiktoken';
import { serve } from '../../internal/oracle/serve.mjs';

const encoders = new Map();
function encoder(name) {
  let e = encoders.get(name);
  if (!e) {
    e = get_encoding(name);
    encoders.set(name, e);
  }
  return e;
}

serve((req) => encoder(req.encoding).encode_ordinary(req.text));
