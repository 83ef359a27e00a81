import { AmbiError } from './ambi-error.js';

/** `resume(conversation)` found no interrupted run there: the conversation ends with an answer, or is empty. */
export class NothingToResumeError extends AmbiError {
  override name = 'NothingToResumeError';
  constructor(readonly conversation: string) {
    super('nothing_to_resume', `Conversation "${conversation}" has no interrupted run to resume (it ends with the model's answer, or is empty)`);
  }
}
