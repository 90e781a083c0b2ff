/**
 * One of the package's files (tokenfit/assets/full, lite, o200k_base,
 * cl100k_base, p50k_base, r50k_base): returns its URL, which bundlers copy
 * into the build. For tokenfit/explicit's init().
 */
declare const url: () => URL;
export default url;
