// The demo's dedicated tool worker: CPU work kept off the page (and killable on timeout).
import { defineTool, exposeTools, ToolError } from 'ambi-web/worker';

interface ColumnStats {
  column: string;
  count: number;
  mean: number;
  min: number;
  max: number;
  stddev: number;
}

const csvStats = defineTool({
  name: 'csv_stats',
  description: 'Statistics (count, mean, min, max, standard deviation) of every numeric column of a CSV text with a header row.',
  parameters: { type: 'object', properties: { csv: { type: 'string', minLength: 1 } }, required: ['csv'], additionalProperties: false },
  // Computes, changes nothing: it runs after untrusted content too.
  readOnly: true,
  timeoutMs: 10_000,
  call: ({ csv }, { signal }) => {
    const rows = csv
      .trim()
      .split(/\r?\n/)
      .map((line) => line.split(',').map((cell) => cell.trim()));
    const [header, ...data] = rows;
    if (!header || data.length === 0) throw new ToolError('The CSV needs a header row and at least one data row');
    const columns: ColumnStats[] = [];
    header.forEach((column, index) => {
      signal.throwIfAborted();
      const values = data.map((row) => Number(row[index])).filter((value) => Number.isFinite(value));
      if (values.length === 0) return;
      const mean = values.reduce((sum, v) => sum + v, 0) / values.length;
      const variance = values.reduce((sum, v) => sum + (v - mean) ** 2, 0) / values.length;
      columns.push({ column, count: values.length, mean: round(mean), min: Math.min(...values), max: Math.max(...values), stddev: round(Math.sqrt(variance)) });
    });
    if (columns.length === 0) throw new ToolError('No column holds numbers');
    return { rows: data.length, columns, computedIn: typeof document === 'undefined' ? 'worker' : 'page' };
  },
});

const round = (value: number) => Math.round(value * 1000) / 1000;

exposeTools([csvStats]);
