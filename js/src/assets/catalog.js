// Where the model catalog is: an app imports this file to load it
// (`await tf.loadCatalog(catalog())`), so bundlers copy the catalog only
// into apps that load it; Node reads it by itself. See full.js.
export default () => new URL('../../dist/tables/catalog.json', import.meta.url);
