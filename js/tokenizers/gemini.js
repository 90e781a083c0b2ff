// Where Gemini's tokenizer is: Gemma 3's SentencePiece model (262,144
// pieces), which Google's own SDK counts Gemini 2.0, 2.5 and 3 with
// (python-genai's local tokenizer). Under Google's Gemma Terms of Use: its
// terms and notice are beside it (dist/tables/gemini.LICENSE). Loaded under
// 'gemini', the name the registry's Gemini rows give, it makes countTokens
// of a Gemini model Google's local count and countChat count the request's
// strings as Google does (the framing Google bills beyond them stays an
// estimate):
//
//   import gemini from 'tokenfit/tokenizers/gemini';
//   await tf.loadTokenizer('gemini', gemini());
export default () => new URL('../dist/tables/gemini.tkh', import.meta.url);
