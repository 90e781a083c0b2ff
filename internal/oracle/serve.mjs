// The Node end of package oracle's protocol (oracle.go): read one JSON
// request a line on stdin, answer each in order with one line on stdout,
// {"ids": [...]} from encode(request) or {"error": "..."}. Answers are
// written in batches, and whenever the input pauses, so a client that waits
// for each answer works too. Used by js/scripts/oracle.mjs (tiktoken) and
// core/internal/hf/testdata/oracle.mjs (tokenizers.js).
import { createInterface } from 'node:readline';

export function serve(encode) {
  const out = [];
  const flush = () => {
    if (out.length) {
      process.stdout.write(out.join('\n') + '\n');
      out.length = 0;
    }
  };
  const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
  rl.on('line', (line) => {
    let answer;
    try {
      answer = { ids: Array.from(encode(JSON.parse(line))) };
    } catch (err) {
      answer = { error: String((err && err.message) || err) };
    }
    out.push(JSON.stringify(answer));
    if (out.length >= 256) flush();
  });
  rl.on('close', flush);
  setInterval(flush, 1).unref();
}
