import { AmbiError } from './ambi-error.js';

/** Another run (perhaps in another tab) holds the conversation, and the caller chose not to wait. */
export class ConversationBusyError extends AmbiError {
  override name = 'ConversationBusyError';
  constructor(readonly conversation: string) {
    super('conversation_busy', `Conversation "${conversation}" is being run elsewhere (another tab or run); try again when it ends`);
  }
}
