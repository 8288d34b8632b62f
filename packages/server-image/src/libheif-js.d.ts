// libheif-js ships no types for its WASM bundle; heic-decoder.ts declares the few calls it makes.
declare module 'libheif-js/wasm-bundle.js' {
  const libheif: unknown;
  export default libheif;
}
