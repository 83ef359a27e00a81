// The tool and the script both dispatch benchmarks run (`worker-dispatch` in Chromium,
// `dispatch-one-thread` in Node): a `ping` that stamps each call as it arrives, and one run per
// round of a reply of `calls` pings then a final text.
import { defineTool, type ScriptedReply } from '../../src/worker/index.js';

export function pingTool(stamps: number[]) {
  return defineTool({
    name: 'ping',
    description: 'Answers pong',
    parameters: { type: 'object', properties: {} },
    idempotent: true,
    call: () => {
      stamps.push(performance.now());
      return 'pong';
    },
  });
}

export function pingScript(calls: number, rounds: number): ScriptedReply[] {
  const reply: ScriptedReply = { toolCalls: Array.from({ length: calls }, () => ({ name: 'ping', arguments: {} })) };
  const replies: ScriptedReply[] = [];
  for (let i = 0; i < rounds; i++) replies.push(reply, 'done');
  return replies;
}
