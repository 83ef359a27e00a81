// The AI SDK example's chat view (demo/ai-sdk/chat-view.tsx) mounted with React in the test page, and unmounted after each test.
import type { Chat } from '@ai-sdk/react';
import type { UIMessage } from 'ai';
import { createElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach } from 'vitest';
import { ChatView } from '../../demo/ai-sdk/chat-view.js';

export interface ChatViews {
  /** Render `chat` with `useChat` in a section named `title`; returns a function that unmounts it (as a page that goes away). */
  mount(chat: Chat<UIMessage>, title: string, options?: { resume?: boolean }): () => void;
}

export function chatViewsUnmountedAfterEach(): ChatViews {
  const mounted: { root: Root; host: HTMLElement }[] = [];
  afterEach(() => {
    for (const { root, host } of mounted.splice(0)) {
      root.unmount();
      host.remove();
    }
  });
  return {
    mount(chat, title, { resume = false } = {}) {
      const host = document.createElement('div');
      document.body.append(host);
      const root = createRoot(host);
      root.render(createElement(ChatView, { chat, title, resume }));
      const entry = { root, host };
      mounted.push(entry);
      return () => {
        const at = mounted.indexOf(entry);
        if (at >= 0) mounted.splice(at, 1);
        root.unmount();
        host.remove();
      };
    },
  };
}
