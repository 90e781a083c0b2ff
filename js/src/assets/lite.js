// Where the lean module is: see full.js.
export default () => new URL('../../dist/tokenfit-lite.wasm', import.meta.url);
