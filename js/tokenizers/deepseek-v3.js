// Where DeepSeek V3's tokenizer is, also DeepSeek R1's (MIT), to load
// under 'hf:deepseek-ai/DeepSeek-V3': see qwen3.js.
export default () => new URL('../dist/tables/deepseek-v3.tkh', import.meta.url);
