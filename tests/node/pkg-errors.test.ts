import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';
import { describe, expect, expectTypeOf, it } from 'vitest';
import * as root from '../../src/index.js';
import * as extend from '../../src/extend/index.js';
import { AmbiError, isAmbiError } from '../../src/errors/ambi-error.js';
import { EngineHttpError } from '../../src/errors/engine-http-error.js';
import type { AmbiErrorCode } from '../../src/core/codes.js';

/** Every error class the public API exports (`ambi-web` and `ambi-web/extend`), by its exported name. */
const api = { ...root, ...extend };
const errorClasses = Object.entries(api).filter(([, value]) => typeof value === 'function' && (value === AmbiError || value.prototype instanceof AmbiError));

const errorsDir = fileURLToPath(new URL('../../src/errors/', import.meta.url));
/** Arguments each class can be built with (most take strings or numbers first). */
const argsFor = (name: string): unknown[] =>
  ({ InvalidOutputError: [['no answer'], 'x', 1], ToolNotAllowedError: [['a'], ['b']] })[name] ?? ['storage_error', 'x', {}];
const make = (Class: unknown, name: string) => Reflect.construct(Class as typeof AmbiError, argsFor(name)) as AmbiError;

/** The error files bundled and minified as an app's build would, then loaded: class names are mangled there. */
async function minifiedApi(): Promise<Record<string, unknown>> {
  const files = readdirSync(errorsDir)
    .filter((file) => file.endsWith('error.ts'))
    .map((file) => errorsDir + file);
  const entry = files.map((file) => `export * from ${JSON.stringify(file)};`).join('\n');
  const bundle = await rolldown({
    input: 'entry',
    plugins: [{ name: 'entry', resolveId: (id) => (id === 'entry' ? id : null), load: (id) => (id === 'entry' ? entry : null) }],
    logLevel: 'silent',
  });
  const { output } = await bundle.generate({ format: 'es', minify: true, codeSplitting: false });
  await bundle.close();
  const code = output[0].code;
  return import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);
}

describe('error classes', () => {
  it('are all exported, each with a name equal to its exported name', () => {
    expect(errorClasses.length).toBeGreaterThanOrEqual(18);
    for (const [exported, Class] of errorClasses) {
      const error = make(Class, exported);
      expect(error).toBeInstanceOf(AmbiError);
      expect(error.name, exported).toBe(exported);
    }
  });

  it('keep their names after minification, which renames the classes', { timeout: 60_000 }, async () => {
    const minified = await minifiedApi();
    const names = errorClasses.map(([exported]) => {
      return [exported, make(minified[exported], exported).name];
    });
    expect(names).toEqual(errorClasses.map(([exported]) => [exported, exported]));
    // The bundle did rename them: otherwise this test would prove nothing.
    expect(errorClasses.some(([exported]) => (minified[exported] as { name: string }).name !== exported)).toBe(true);
  });

  it('narrow `code` through isAmbiError, and a code that does not exist fails to compile', () => {
    const error: unknown = new EngineHttpError(429, 'slow down', 1000);
    if (isAmbiError(error, 'http_error')) expectTypeOf(error.code).toEqualTypeOf<'http_error'>();
    if (isAmbiError(error)) expectTypeOf(error.code).toEqualTypeOf<AmbiErrorCode>();
    // @ts-expect-error a typo of 'timeout'
    expect(isAmbiError(error, 'timout')).toBe(false);
    expect(isAmbiError(error, 'http_error')).toBe(true);
  });
});
