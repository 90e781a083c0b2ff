// Where the table of o200k_base is: see full.js.
export default () => new URL('../../dist/tables/o200k_base.tkp', import.meta.url);
