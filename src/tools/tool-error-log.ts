import type { OnToolError } from './types.js';

// `process.env.NODE_ENV` is written out in full so that an app's bundler (Vite, webpack, esbuild,
// Rollup's replace) puts the build's mode in its place; declared here, not taken from @types/node,
// as a page has no `process` of its own.
declare const process: { env: { NODE_ENV?: string } };

/**
 * Whether the app runs in development: `process.env.NODE_ENV` is neither `production` nor `test`.
 * An app's bundler sets it (Vite: `development` under the dev server, `production` in a build);
 * Node leaves it unset unless told (development). Where nothing defines it (a page that loads the
 * package with no bundler), this is not development.
 */
export function inDevelopment(): boolean {
  try {
    const mode = process.env.NODE_ENV;
    return mode !== 'production' && mode !== 'test';
  } catch {
    return false; // no `process`, and no bundler put a mode in its place
  }
}

/**
 * The `onToolError` a runner or an agent has when none is given: in development, the first throw
 * of each tool is logged with `console.error` (its stack included), once, so a bug in a tool
 * leaves a trace while the model reads only `crashed`; later throws of that tool are not logged.
 * Outside development, nothing. An `onToolError` of the app's own (a no-op silences it) replaces it.
 */
export function developmentToolErrorLog(): OnToolError | undefined {
  if (!inDevelopment()) return undefined;
  const logged = new Set<string>();
  return ({ tool, callId, attempt, error }) => {
    if (logged.has(tool)) return;
    logged.add(tool);
    console.error(
      `ambi-web: the tool "${tool}" threw (call ${callId}, attempt ${attempt}); the model reads the call as \`crashed\`. ` +
        'Logged once per tool, in development: pass `onToolError` to createWorkerRunner or Agent.make to handle every throw yourself.',
      error,
    );
  };
}
