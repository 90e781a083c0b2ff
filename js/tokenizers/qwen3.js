// Where Qwen 3's tokenizer (Apache-2.0) is: the table `tokenfit convert`
// makes of the model's tokenizer.json, built into the package at make js,
// with its licence beside it (dist/tables/qwen3.LICENSE). One module per
// table, like src/assets/: an app that does not import it ships none of
// it, and one that does ships it once, whatever the bundler. At the
// package's root, not in src/, so that the import's path is the file's
// path too: Parcel reads no package exports unless told to. Loaded under
// the name the registry's rows give, it makes their counts exact:
//
//   import qwen3 from 'tokenfit/tokenizers/qwen3';
//   await tf.loadTokenizer('hf:Qwen/Qwen3-8B', qwen3());
export default () => new URL('../dist/tables/qwen3.tkh', import.meta.url);
