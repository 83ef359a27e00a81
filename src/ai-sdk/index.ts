// The entry `ambi-web/ai-sdk`: the AI SDK's `useChat` / `Chat` on a runner, with no server, and any
// AI SDK language model as an engine (`languageModelEngine`). It imports only types from `ai` (an
// optional peer dependency): nothing of `ai` or of a provider is bundled or loaded by it.
// Everything here is also exported from `src/index.ts`, the one definition of the public API.
export { ambiChatTransport, type AmbiChatTransportOptions } from './chat-transport.js';
export { agentRunner, type ChatRunOptions, type ConversationRunner } from '../ui/conversation-runner.js';
export { languageModelEngine, type LanguageModelEngineOptions } from './language-model/language-model-engine.js';
export type { AiSdkLanguageModel } from './language-model/model-shape.js';
