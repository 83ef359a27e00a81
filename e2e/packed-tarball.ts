// The packed package, made once per Playwright worker and shared by the spec files that install it
// (e2e/package.spec.ts, e2e/package-use-chat.spec.ts): `npm pack` runs prepack, which builds and
// checks dist/lib and dist/types, so the tarball is always fresh. Removed when the worker exits.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export const root = fileURLToPath(new URL('..', import.meta.url));

/** An outer `npm test` leaves npm's own variables behind; a nested npm must see the temp app as its project. */
export const env = Object.fromEntries(
  Object.entries(process.env).filter(([key]) => !/^(npm_(package_|lifecycle_|command$|config_local_prefix$|config_call$)|INIT_CWD$)/i.test(key)),
);

/** Run a command in `cwd`; a failure throws with the end of its output. */
export async function run(command: string, args: string[], cwd: string): Promise<void> {
  try {
    await promisify(execFile)(command, args, { cwd, env, maxBuffer: 32 * 1024 * 1024 });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}\n${stdout.slice(-4000)}\n${stderr.slice(-4000)}`);
  }
}

let packed: Promise<string> | undefined;

/** The path of the packed tarball (`ambi-web-<version>.tgz`), packed on first use. */
export function packedTarball(): Promise<string> {
  packed ??= (async () => {
    const packDir = mkdtempSync(join(tmpdir(), 'ambi-web-pack-'));
    process.once('exit', () => rmSync(packDir, { recursive: true, force: true }));
    await run('npm', ['pack', '--pack-destination', packDir, '--ignore-scripts=false', '--loglevel=error'], root);
    const tarball = readdirSync(packDir).find((name) => name.endsWith('.tgz'));
    if (!tarball) throw new Error(`npm pack wrote no tarball in ${packDir}`);
    return join(packDir, tarball);
  })();
  return packed;
}
