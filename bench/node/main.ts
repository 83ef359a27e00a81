// Node benchmarks, one per process: `node dist/bench/node/main.js <name>` prints one line
// `BENCH_RESULT <json>` (an array of measurements) that bench/run.mjs collects.
import { codemode } from './codemode.js';
import { codemode20Calls, codemodeCallOverhead } from './codemode-runs.js';
import { dispatchNode, dispatchOneThread } from './dispatch-one-thread.js';
import { loopOverhead } from './loop-overhead.js';
import { languageModelEngineOverhead } from './language-model-engine.js';
import { mcpCall } from './mcp-call.js';
import { parserThroughput } from './parser-throughput.js';
import { registration } from './registration.js';
import { conversationGrowth } from './conversation-growth.js';
import { runScaling, toolScaling } from './scaling.js';
import { untrustedHoldOverhead } from './untrusted-hold-overhead.js';
import type { Measurement } from '../lib/stats.js';

const benches: Record<string, () => Promise<Measurement[]>> = {
  'loop-overhead': loopOverhead,
  'language-model-engine': languageModelEngineOverhead,
  'parser-throughput': parserThroughput,
  'mcp-call': mcpCall,
  'dispatch-one-thread': dispatchOneThread,
  'dispatch-node': dispatchNode,
  tools: toolScaling,
  runs: runScaling,
  conversation: conversationGrowth,
  registration,
  codemode,
  'untrusted-hold-overhead': untrustedHoldOverhead,
  'codemode-20-calls': codemode20Calls,
  'codemode-call-overhead': codemodeCallOverhead,
};

const name = process.argv[2] ?? '';
const bench = benches[name];
if (!bench) {
  console.error(`unknown node benchmark "${name}"; one of: ${Object.keys(benches).join(', ')}`);
  process.exit(2);
}
const results = await bench();
console.log(`BENCH_RESULT ${JSON.stringify(results)}`);
