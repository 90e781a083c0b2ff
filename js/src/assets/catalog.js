// Where the model catalog is (catalog.js loads it; an app that never calls
// loadCatalog() never imports this file, so bundlers copy the catalog only
// into apps that load it): see full.js.
export default () => new URL('../../dist/tables/catalog.json', import.meta.url);
