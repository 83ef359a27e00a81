// A recorded run's model traffic: plain JSON, written by `agent.cassette()` / `runner.cassette()`
// and served again by `replayEngine(cassette)`. Types only.
import type { CallTags, Message, ToolChoice, ToolDefinition } from '../../core/types.js';
import type { AnswerFormat, EngineEvent } from '../types.js';

/** What `cassette()` returns: every model request of an agent (or runner) and its response, in the order they were made. */
export interface Cassette {
  kind: 'ambi-web-cassette';
  version: 1;
  /** The engine that answered: its provider and model (never a URL or a key), and whether tools were native. */
  engine: CassetteEngine;
  interactions: CassetteInteraction[];
  /** The bytes of the images and files the requests hold, by the name their parts carry (`sha256:<hex>`), once each. */
  parts?: Record<string, CassettePart>;
}

/** One image's or file's bytes in a cassette: what they are, and the bytes in base64. */
export interface CassettePart {
  mediaType: string;
  data: string;
}

export interface CassetteEngine {
  provider: string;
  model?: string;
  nativeTools: boolean;
}

/** One model request and what came back. */
export interface CassetteInteraction {
  request: CassetteRequest;
  /** The events the engine streamed, in order; or how the request failed. */
  response: { events: EngineEvent[] } | { error: CassetteError };
}

/**
 * A request as an engine sends it, normalised so that recording the same run again writes the
 * same JSON: call ids renamed `call_1`, `call_2`… in order of appearance, idempotency keys and
 * marks no server sees left out, ISO 8601 date-times written `<timestamp>`, an image's or file's
 * bytes named by their hash (`sha256:<hex>`, the bytes in the cassette's `parts`).
 */
export interface CassetteRequest {
  messages: Message[];
  tools: ToolDefinition[];
  toolChoice?: ToolChoice;
  output?: AnswerFormat;
  callTags?: CallTags;
}

/** A failed request: its error's code and message (and an HTTP failure's status), thrown again on replay. */
export interface CassetteError {
  code: string;
  message: string;
  status?: number;
  retryAfterMs?: number;
}

export const CASSETTE_KIND = 'ambi-web-cassette';
