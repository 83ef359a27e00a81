// A chat on the AI SDK's own hook: `useChat` renders the messages, and the approval card answers
// through `addToolApprovalResponse`. Nothing here knows about ambi-web: the transport does.
import { type Chat, useChat } from '@ai-sdk/react';
import type { DynamicToolUIPart, UIMessage } from 'ai';
import { type FormEvent, useState } from 'react';

type Decide = (response: { id: string; approved: boolean; reason?: string }) => void | PromiseLike<void>;

/** One chat: its messages, an approval card per call that waits, and a box to write in. */
export function ChatView({ chat, resume = false, title }: { chat: Chat<UIMessage>; resume?: boolean; title: string }) {
  const { messages, sendMessage, addToolApprovalResponse, status, error, stop } = useChat({ chat, resume });
  const [input, setInput] = useState('');
  const busy = status === 'submitted' || status === 'streaming';
  const send = (event: FormEvent) => {
    event.preventDefault();
    if (input.trim() === '') return;
    void sendMessage({ text: input });
    setInput('');
  };
  return (
    <section className="chat" aria-label={title} data-status={status}>
      <h2>{title}</h2>
      <ol className="messages">
        {messages.map((message) => (
          <li key={message.id} className={`message ${message.role}`}>
            {message.parts.map((part, i) =>
              part.type === 'text' ? (
                // biome-ignore lint/suspicious/noArrayIndexKey: parts have no id of their own and only grow at the end
                <p key={i}>{part.text}</p>
              ) : part.type === 'dynamic-tool' ? (
                <ToolCard key={part.toolCallId} part={part} decide={addToolApprovalResponse} />
              ) : null,
            )}
          </li>
        ))}
      </ol>
      {error ? <p role="alert">{error.message}</p> : null}
      <form onSubmit={send}>
        <input aria-label={`Message to ${title}`} value={input} onChange={(event) => setInput(event.target.value)} />
        <button type="submit" disabled={busy}>
          Send
        </button>
        <button type="button" disabled={!busy} onClick={() => void stop()}>
          Stop
        </button>
      </form>
    </section>
  );
}

/** A call of the model: what it asked, whether it waits for a decision, and how it ended. */
function ToolCard({ part, decide }: { part: DynamicToolUIPart; decide: Decide }) {
  const [reason, setReason] = useState('');
  return (
    <fieldset className="tool" data-tool={part.toolName} data-state={part.state}>
      <legend>Call of {part.toolName}</legend>
      <code>
        {part.toolName}({JSON.stringify(part.input ?? {})})
      </code>
      {part.state === 'approval-requested' ? (
        <span className="approval">
          <button type="button" onClick={() => void decide({ id: part.approval.id, approved: true })}>
            Approve {part.toolName}
          </button>
          <input aria-label={`Why not ${part.toolName}`} value={reason} onChange={(event) => setReason(event.target.value)} />
          <button type="button" onClick={() => void decide({ id: part.approval.id, approved: false, ...(reason ? { reason } : {}) })}>
            Deny {part.toolName}
          </button>
        </span>
      ) : null}
      {part.state === 'output-available' ? <output>{JSON.stringify(part.output)}</output> : null}
      {part.state === 'output-error' ? <output className="failed">{part.errorText}</output> : null}
      {part.state === 'output-denied' ? <output className="denied">denied</output> : null}
    </fieldset>
  );
}
