// What Vite's `?url` suffix gives for QuickJS's wasm (the bundler's URL of the file), declared
// here rather than through `vite/client`, so the published declarations reference no Vite types.
declare module '@jitl/quickjs-wasmfile-release-sync/wasm?url' {
  const url: string;
  export default url;
}
