// Where Mistral 7B v0.1's tokenizer is (Apache-2.0; its data MIT, (c)
// belladore.ai), to load under 'hf:mistralai/Mistral-7B-v0.1': see qwen3.js.
export default () => new URL('../dist/tables/mistral-7b-v0.1.tkh', import.meta.url);
