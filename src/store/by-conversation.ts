/** Every key of one conversation's records in a store keyed `[conversation, …]`: `[conversation, *]`. */
export const ofConversation = (conversation: string) => IDBKeyRange.bound([conversation], [conversation, []]);
