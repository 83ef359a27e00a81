// How much a message's parts may hold, by default (`AgentOptions.maxPartBytes`, `maxConversationBytes`).

/** One part: 20 MiB, OpenAI's limit for one image and Gemini's for a whole inline request. */
export const DEFAULT_MAX_PART_BYTES = 20 * 1024 * 1024;

/** The parts of one conversation together: 100 MiB (what a run loads and an engine may send again each turn). */
export const DEFAULT_MAX_CONVERSATION_BYTES = 100 * 1024 * 1024;
