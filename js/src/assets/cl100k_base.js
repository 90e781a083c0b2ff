// Where the table of cl100k_base is: see full.js.
export default () => new URL('../../dist/tables/cl100k_base.tkp', import.meta.url);
