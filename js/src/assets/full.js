// Where the full module (with the tokenizer.json loader) is. One file per
// asset, each naming its file with a literal new URL(…, import.meta.url):
// bundlers copy only what they can see (Parcel and Vite's dev prebundling
// follow no path built from a variable), and an app that imports only the files it loads (tokenfit/explicit) ships
// only those. A function, so that importing it fetches nothing and needs no
// import.meta.url (workerd's bundles have none).
export default () => new URL('../../dist/tokenfit.wasm', import.meta.url);
