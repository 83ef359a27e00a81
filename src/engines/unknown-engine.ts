import { EngineError } from '../errors/engine-error.js';

/** The coded error for a config of a kind no factory builds, naming the kinds there are. */
export function unknownEngine(config: unknown, kinds: readonly string[]): EngineError {
  const kind = typeof config === 'object' && config !== null ? (config as { kind?: unknown }).kind : undefined;
  const named = typeof kind === 'string' ? `"${kind.slice(0, 100)}"` : `no kind (${kind === undefined ? 'none given' : typeof kind})`;
  return new EngineError('unknown_engine', `No engine for kind ${named} in this runner; its kinds: ${kinds.join(', ')}`);
}
