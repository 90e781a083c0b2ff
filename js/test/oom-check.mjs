// Run by init.test.mjs in a Node whose WebAssembly memories are capped
// (--wasm-max-mem-pages), so that a large call runs the module out of
// memory for real: prints what each step answered, one JSON line.
import * as tokenfit from 'tokenfit';

const answer = (f) => {
  try {
    return f();
  } catch (e) {
    return { name: e.name, code: e.code, message: e.message };
  }
};
const tf = await tokenfit.init();
const out = { before: tf.countTokens('Hello world') };
// encode, not countTokens: a count of a long text streams into the
// module in parts and no longer needs the memory; encode's ids do.
out.huge = answer(() => tf.encode('Out of memory soon. '.repeat(3_000_000)));
out.same = answer(() => tf.countTokens('Hello world'));
out.topLevel = answer(() => tokenfit.countTokens('Hello world'));
const next = await tokenfit.init();
out.newInstance = next !== tf;
out.next = next.countTokens('Hello world');
out.topLevelAfter = tokenfit.countTokens('Hello world');
out.deadStaysDead = answer(() => tf.encode('x')).code;
out.initAgain = (await tokenfit.init()) === next;
process.stdout.write(`${JSON.stringify(out)}\n`);
