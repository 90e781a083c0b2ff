// The model registry as the full module answers it (tf.models(), and the
// package's version), taken by build.mjs: the page shows the model's
// window, and counts with its encoding, before any module has started, and
// the lean module that keeps the live count knows no models.

// TOKENFIT_REGISTRY is build.mjs's define: { version, models, estimators }
// as a JSON string, which V8 parses faster than the same object as code.
/* global TOKENFIT_REGISTRY */
export const registry = JSON.parse(TOKENFIT_REGISTRY);

// encodingOf names the encoding that counts for a model of the registry:
// its own, or its estimator's base.
export function encodingOf(model) {
  const m = registry.models.find((x) => x.id === model);
  if (!m) throw new Error(`${model} is not a model of tokenfit's registry`);
  return m.encoding ?? registry.estimators[m.estimator].base;
}
