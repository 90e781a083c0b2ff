// bundleVectors reads the shared vectors with every case's text filled in
// (files under testdata/ read, repetitions expanded), as one object that a
// browser or a worker can be given whole.
import { readFileSync } from 'node:fs';

const root = new URL('../../testdata/', import.meta.url);

export function bundleVectors() {
  const tokens = JSON.parse(readFileSync(new URL('vectors/tokens.json', root), 'utf8'));
  for (const c of tokens.cases) {
    if (c.file) c.text = readFileSync(new URL(c.file, root), 'utf8');
    else if (c.repeat) c.text = c.repeat.unit.repeat(c.repeat.times);
  }
  const chat = JSON.parse(readFileSync(new URL('vectors/chat_api_verified.json', root), 'utf8'));
  // Budget and plan requests with what their answers must hold (core and
  // the host run the same files).
  const budgets = ['budget', 'plan', 'shapes'].flatMap((f) => JSON.parse(readFileSync(new URL(`vectors/${f}.json`, root), 'utf8')).cases);
  // A body is the request as text (JSON.parse would keep one of a key given
  // twice): every runner sends a string request as it is.
  for (const c of budgets) if (c.body !== undefined) c.request = c.body;
  return { tokens, chat, budgets };
}

// bundleHostile reads testdata/hostile: cases.json with the generated
// types.json cases appended, as internal/hostile's Load does.
export function bundleHostile() {
  const file = JSON.parse(readFileSync(new URL('hostile/cases.json', root), 'utf8'));
  const types = JSON.parse(readFileSync(new URL('hostile/types.json', root), 'utf8'));
  file.cases.push(...types.cases);
  return file;
}
