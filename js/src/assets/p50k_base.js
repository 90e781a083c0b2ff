// Where the table of p50k_base is: see full.js.
export default () => new URL('../../dist/tables/p50k_base.tkp', import.meta.url);
