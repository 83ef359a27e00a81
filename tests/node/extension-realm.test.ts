// Where validation 'auto' must never try eval: a realm of a browser extension, recognised by its
// address (extension pages and their workers) or by chrome.runtime.id (content scripts).
import { afterEach, describe, expect, it } from 'vitest';
import { inExtensionRealm } from '../../src/validation/extension-realm.js';

const realm = globalThis as { chrome?: unknown; location?: unknown };
afterEach(() => {
  delete realm.chrome;
  delete realm.location;
});

describe('inExtensionRealm', () => {
  it('is false in Node, and on a web page where chrome.runtime has no id (an externally_connectable page)', () => {
    expect(inExtensionRealm()).toBe(false);
    realm.location = { protocol: 'https:' };
    realm.chrome = { runtime: {} };
    expect(inExtensionRealm()).toBe(false);
  });

  it.each(['chrome-extension:', 'moz-extension:', 'safari-web-extension:'])('is true at a %s address (an extension page or its worker)', (protocol) => {
    realm.location = { protocol };
    expect(inExtensionRealm()).toBe(true);
  });

  it('is true in a content script, which has the page address and its extension id', () => {
    realm.location = { protocol: 'https:' };
    realm.chrome = { runtime: { id: 'abcdefghijklmnopabcdefghijklmnop' } };
    expect(inExtensionRealm()).toBe(true);
  });
});
