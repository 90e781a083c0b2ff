// Where the full module without the tokenizer.json loader is (the one
// init() starts by default): see full.js.
export default () => new URL('../../dist/tokenfit-nohf.wasm', import.meta.url);
