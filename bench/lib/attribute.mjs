// Minified bytes of a built chunk by source file, from its source map: `BENCH_SOURCEMAP=1 npx vite build --config bench/vite.config.ts --mode bundle-ours`, then `node bench/lib/attribute.mjs dist/bench/bundle/ours/assets/runner.worker-*.js [rows]`.
import { readFileSync } from 'node:fs';
import { SourceMapConsumer } from 'source-map-js';
const file = process.argv[2];
const code = readFileSync(file, 'utf8');
const map = new SourceMapConsumer(JSON.parse(readFileSync(`${file}.map`, 'utf8')));
const lines = code.split('\n');
const bytes = new Map();
const mappings = [];
map.eachMapping((m) => mappings.push(m));
for (let i = 0; i < mappings.length; i++) {
  const m = mappings[i],
    n = mappings[i + 1];
  let len;
  if (n && n.generatedLine === m.generatedLine) len = n.generatedColumn - m.generatedColumn;
  else len = lines[m.generatedLine - 1].length - m.generatedColumn;
  const src = (m.source || '?').replace(/.*node_modules\//, 'nm/').replace(/.*\/src\//, 'src/');
  bytes.set(src, (bytes.get(src) || 0) + len);
}
const total = code.length;
const sorted = [...bytes].sort((a, b) => b[1] - a[1]);
console.log('total', total);
for (const [s, b] of sorted.slice(0, Number(process.argv[3] || 60))) console.log(String(b).padStart(7), `${((100 * b) / total).toFixed(1).padStart(5)}%`, s);
