// What a built Vite app loads, from its output files: the page entry and its static imports
// (the main thread), the workers it starts (`new URL('x.js', import.meta.url)` handed to
// `new Worker`) with their static imports, and the chunks only reached by `import()`, split,
// when the list of files the running app fetched is given (bench/browser/app-loads.ts), into
// those it loaded and those it did not.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';

/** gzip -9 size of a file, as a server would send it. */
export const gzipSize = (file) => gzipSync(readFileSync(file), { level: 9 }).length;

/** Every .js file under `dir`. */
export function jsFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...jsFiles(path));
    else if (name.endsWith('.js')) out.push(path);
  }
  return out;
}

/**
 * References from one chunk to other chunks of the build, by how they load: `static`
 * (import ... from / import "x"), `dynamic` (import("x")), `url` (new URL("x", import.meta.url):
 * a worker entry in these apps). Minified output quotes with `, " or '. Other mentions (Vite's
 * list of an `import()`'s dependencies to preload) are not references.
 */
export function references(file, all) {
  const text = readFileSync(file, 'utf8');
  const found = [];
  for (const other of all) {
    if (other === file) continue;
    const name = basename(other);
    const pattern = new RegExp(`(.{0,24})[\`"'](?:\\./|/assets/|\\./assets/)?${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[\`"']`, 'g');
    for (const match of text.matchAll(pattern)) {
      const before = match[1];
      // Any other mention (a name in Vite's preload list of an `import()`'s dependencies, say) loads nothing by itself.
      const kind = /import\(\s*$/.test(before) ? 'dynamic' : /new URL\(\s*$/.test(before) ? 'url' : /(?:from|import)\s*$/.test(before) ? 'static' : undefined;
      if (kind) found.push({ file: other, kind });
    }
  }
  return found;
}

/** Static closure of `entry` (entry included). */
function staticClosure(entry, all, seen = new Set()) {
  if (seen.has(entry)) return seen;
  seen.add(entry);
  for (const ref of references(entry, all)) if (ref.kind === 'static') staticClosure(ref.file, all, seen);
  return seen;
}

/**
 * Sizes of a built app in `dir` whose HTML entry is `htmlName` (Vite manifest in .vite/):
 * `page` (main thread), `workers` (started by the page or by a worker), `lazy` (behind
 * `import()` only), each a list of { file, gzip } and a total. With `fetched` (paths
 * relative to `dir` of the .js files the running app fetched), `loadedLazy` holds the
 * `import()` chunks it did load and `lazy` only the others; a fetched file outside the
 * graph, or a page or worker file never fetched, throws (the graph would be wrong).
 */
export function appSizes(dir, htmlName = 'index.html', fetched = undefined) {
  const manifest = JSON.parse(readFileSync(join(dir, '.vite/manifest.json'), 'utf8'));
  const entry = Object.values(manifest).find((chunk) => chunk.isEntry && chunk.src === htmlName);
  if (!entry) throw new Error(`no entry for ${htmlName} in ${dir}/.vite/manifest.json`);
  const all = jsFiles(dir);
  const page = staticClosure(join(dir, entry.file), all);

  const workers = new Set();
  const queue = [...page];
  while (queue.length > 0) {
    const file = queue.shift();
    for (const ref of references(file, all)) {
      if (ref.kind !== 'url' || page.has(ref.file) || workers.has(ref.file)) continue;
      for (const member of staticClosure(ref.file, all)) {
        if (!page.has(member) && !workers.has(member)) {
          workers.add(member);
          queue.push(member);
        }
      }
    }
  }
  const reachable = all.filter((file) => !page.has(file) && !workers.has(file));
  const loaded = fetched === undefined ? undefined : new Set(fetched.map((file) => join(dir, file)));
  if (loaded) {
    const unknown = [...loaded].filter((file) => !all.includes(file));
    const missed = [...page, ...workers].filter((file) => !loaded.has(file));
    if (unknown.length > 0) throw new Error(`${dir}: the app fetched files the build does not have: ${unknown.join(', ')}`);
    if (missed.length > 0)
      throw new Error(`${dir}: the app never fetched ${missed.map((file) => relative(dir, file)).join(', ')}, which the chunk graph says it loads`);
  }
  const loadedLazy = loaded ? reachable.filter((file) => loaded.has(file)) : [];
  const lazy = reachable.filter((file) => !loadedLazy.includes(file));
  const list = (files) => {
    const items = [...files].map((file) => ({ file: relative(dir, file), gzip: gzipSize(file) }));
    return { items, total: items.reduce((sum, item) => sum + item.gzip, 0) };
  };
  return { page: list(page), workers: list(workers), loadedLazy: list(loadedLazy), lazy: list(lazy), dir: dirname(join(dir, entry.file)) };
}
