// grammar-cost-32k (and -152k): tokens per second of a generated model (tests/support/tiny-gguf.ts)
// with a real model's vocabulary size, in real llama.cpp in this page, writing a call under our
// tool-call grammar, against the same model, same prompt, writing unconstrained text. A grammar
// checks every token of the vocabulary it may sample, so its cost grows with the vocabulary.
// Alternating rounds, one engine.
import { localModel, type ToolDefinition } from '../../../src/index.js';
import { createLocalEngine, type EngineRequest } from '../../../src/extend/index.js';
import { tinyGguf } from '../../../tests/support/tiny-gguf.js';
import { expose } from './expose.js';

export interface GrammarCostOptions {
  rounds: number;
  warmup: number;
  /** Longest reply: the unconstrained one runs to it (the model never ends by itself). */
  maxTokens: number;
  /** Tokens in the generated model's vocabulary. */
  vocabSize: number;
}

export interface GrammarCostRound {
  constrained: { tokens: number; ms: number };
  free: { tokens: number; ms: number };
}

const add: ToolDefinition = {
  name: 'add',
  description: 'Add two integers.',
  parameters: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } }, required: ['a', 'b'] },
};

expose<GrammarCostOptions, GrammarCostRound[]>({
  async run(options) {
    // `endless`: no end-of-text token, so free text runs to maxTokens; the grammar still ends when its call is complete.
    const engine = createLocalEngine(
      localModel({
        source: new Blob([tinyGguf({ endless: true, vocabSize: options.vocabSize })]),
        maxTokens: options.maxTokens,
        temperature: 0.8,
        seed: 1,
        threads: 1,
      }),
    );
    await engine.load();
    const messages = [{ role: 'user' as const, content: 'Add 379 and 5678.' }];
    const constrained: EngineRequest = { messages, tools: [add], toolChoice: 'required' };
    const free: EngineRequest = { messages, tools: [] };
    const one = async (request: EngineRequest) => {
      let tokens = 0;
      const start = performance.now();
      for await (const event of engine.stream(request)) if (event.type === 'usage') tokens = event.usage.completionTokens;
      return { tokens, ms: performance.now() - start };
    };
    const rounds: GrammarCostRound[] = [];
    for (let i = 0; i < options.warmup + options.rounds; i++) {
      // Alternating order, so drift hits both alike (an object literal is evaluated in written order).
      const round =
        i % 2 === 0 ? { constrained: await one(constrained), free: await one(free) } : { free: await one(free), constrained: await one(constrained) };
      if (i >= options.warmup) rounds.push(round);
    }
    await engine.unload();
    return rounds;
  },
});
