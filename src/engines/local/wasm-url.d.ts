// The URL of wllama's wasm, as Vite serves or emits it (`?url`): declared here so the type build,
// which does not load Vite's client types, knows the module too.
declare module '@wllama/wllama/esm/wasm/wllama.wasm?url' {
  const url: string;
  export default url;
}
