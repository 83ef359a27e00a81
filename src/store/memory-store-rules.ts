// What the memory conversation and approval stores check and fail with, in one module they load
// on first use (`import()`): every Agent makes a MemoryConversationStore, and a run without a
// conversation never touches it.
export { answerableCalls, checkAnswers, checkConversationId, checkCount, checkLength, checkMessages } from './conversation-rules.js';
export { MemoryApprovals } from './memory-approvals.js';
export { invalidValue, toStorageError } from './storage-failure.js';
