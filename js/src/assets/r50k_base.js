// Where the table of r50k_base is: see full.js.
export default () => new URL('../../dist/tables/r50k_base.tkp', import.meta.url);
