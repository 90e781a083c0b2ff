// Where Mistral's v3 tokenizer is (Mistral 7B v0.3: Apache-2.0; its data
// MIT, (c) aknorw and (c) belladore.ai), to load under
// 'hf:mistralai/Mistral-7B-v0.3': see qwen3.js.
export default () => new URL('../dist/tables/mistral-7b-v0.3.tkh', import.meta.url);
