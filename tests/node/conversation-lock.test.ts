import { describeConversationLock } from '../contract/conversation-lock.js';

describeConversationLock('node');
