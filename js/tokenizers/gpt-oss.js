// Where gpt-oss's tokenizer is (Apache-2.0 and OpenAI's gpt-oss usage
// policy), to load under 'hf:openai/gpt-oss-120b': see qwen3.js.
export default () => new URL('../dist/tables/gpt-oss.tkh', import.meta.url);
