/**
 * One of the package's files: a module or a table (tokenfit/assets/full,
 * nohf, lite, o200k_base, cl100k_base, p50k_base, r50k_base) or an
 * open-weight tokenizer's table (tokenfit/tokenizers/qwen3, gpt-oss,
 * deepseek-v3, mistral-7b-v0.1, mistral-7b-v0.3, gemini). Returns its URL, which bundlers copy into
 * the build: for tokenfit/explicit's init(), or for
 * {@link Tokenfit.loadTokenizer} (`tf.loadTokenizer('hf:Qwen/Qwen3-8B', qwen3())`).
 */
declare const url: () => URL;
export default url;
