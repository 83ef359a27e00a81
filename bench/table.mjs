#!/usr/bin/env node
// `node bench/table.mjs [results.json]`: the figures of a bench run (default
// bench/results/latest.json) as a Markdown table: each figure's median, its rounds' range, its
// target and whether the median meets it. What bench/README.md's table of a whole run is made from.
import { readFileSync } from 'node:fs';

const file = process.argv[2] ?? 'bench/results/latest.json';
const results = JSON.parse(readFileSync(file, 'utf8'));

/** Figures whose code another branch is changing: shown as they stand, not judged here. */
const PENDING = new Set(process.env.BENCH_PENDING?.split(',').filter(Boolean) ?? []);

const fmt = (x) => {
  if (x === null || x === undefined || Number.isNaN(x)) return 'n/a';
  const digits = Math.abs(x) >= 100 ? 0 : Math.abs(x) >= 10 ? 1 : Math.abs(x) >= 1 ? 2 : 3;
  return x.toFixed(digits);
};

const rows = results.map((r) => {
  const range = r.range ? `${fmt(r.range[0])}–${fmt(r.range[1])} (${r.rounds})` : 'one measure';
  const met = PENDING.has(r.name) ? 'pending (as it stands)' : r.met === null ? 'information' : r.met ? 'yes' : '**no**';
  return `| \`${r.name}\` | ${fmt(r.value)} ${r.unit} | ${r.baselineValue === null ? '-' : fmt(r.baselineValue)} | ${fmt(r.ratio)} | ${range} | ${r.target ?? '-'} | ${met} |`;
});
console.log('| figure | ours (median) | baseline (median) | ratio (median) | range (rounds) | target | met |');
console.log('| --- | --- | --- | --- | --- | --- | --- |');
console.log(rows.join('\n'));
