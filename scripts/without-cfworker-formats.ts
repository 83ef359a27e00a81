import type { Plugin } from 'vite';

const NO_FORMATS = '\0ambi-web:no-cfworker-formats';
const CFWORKER_ESM = /[\\/]@cfworker[\\/]json-schema[\\/]dist[\\/]esm[\\/][^\\/]+\.js$/;

/**
 * `@cfworker/json-schema` imports its string formats (`format.js`, 8.7 KB minified) into
 * `validate`, though ours never reaches them: the no-eval validator drops `format` from every
 * schema it hands over (formats are hints, as in our ajv), so `format[undefined]` is never read.
 * In a build, that module is an empty table. The package bundles cfworker through this plugin
 * (vite.config.ts, `lib`), so an app built from it gets the same; the demo's and the benchmarks'
 * builds use it too. Dev servers and tests load cfworker as published, formats included.
 */
export function withoutCfworkerFormats(): Plugin {
  return {
    name: 'ambi-web:without-cfworker-formats',
    enforce: 'pre',
    apply: 'build',
    resolveId(source, importer) {
      if (source === './format.js' && importer && CFWORKER_ESM.test(importer)) return NO_FORMATS;
      return null;
    },
    load(id) {
      return id === NO_FORMATS ? 'export const format = Object.freeze(Object.create(null));' : null;
    },
  };
}
