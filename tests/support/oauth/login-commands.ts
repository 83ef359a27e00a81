// Vitest browser commands (they run in Node, with Playwright's browser context) that act as the
// person in the login popup: sign in on the authorization server's own page, then allow or refuse
// on its consent page, or close the window. The test page cannot reach that window (another origin).
import type { BrowserContext, Page } from 'playwright';
import type { BrowserCommand } from 'vitest/node';

export type ConsentAction = 'approve' | 'deny' | 'close';

/** How long the person takes at most. */
const PATIENCE_MS = 15_000;

/** The login window: the context's page that is not the test runner's (waited for; undefined if it came and went already). */
async function loginWindow(context: BrowserContext, runner: Page): Promise<Page | undefined> {
  const deadline = Date.now() + 3_000;
  while (Date.now() < deadline) {
    const found = context.pages().findLast((page) => page !== runner && !page.isClosed());
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return undefined;
}

/**
 * Answer the login window at `issuer`: sign in (any login) where it asks, then allow or refuse on
 * its consent page (a grant given before needs none), or close it. Resolves with `closed` once the
 * app's redirect page closed the window, else with what that page says.
 */
export const oauthConsent: BrowserCommand<[issuer: string, action: ConsentAction]> = async ({ context, page }, issuer, action) => {
  const popup = await loginWindow(context, page);
  if (!popup) return 'closed';
  if (action === 'close') {
    await popup.waitForURL((url) => url.href.startsWith(issuer));
    await popup.close();
    return 'closed';
  }
  const deadline = Date.now() + PATIENCE_MS;
  while (!popup.isClosed() && Date.now() < deadline) {
    const url = popup.url();
    if (url.startsWith(issuer)) {
      const login = popup.locator('input[name="login"]');
      const consent = popup.locator('button[type="submit"]', { hasText: 'Continue' });
      if (await login.isVisible().catch(() => false)) {
        await login.fill('alice');
        await popup.locator('input[name="password"]').fill('secret');
        await popup.locator('button[type="submit"]').click();
      } else if (await consent.isVisible().catch(() => false)) {
        if (action === 'deny') await popup.locator('a', { hasText: 'Cancel' }).click();
        else await consent.click();
      }
    } else if (
      await popup
        .locator('#status', { hasText: ':' })
        .isVisible()
        .catch(() => false)
    ) {
      // The redirect page did not close the window: it says why.
      const said = (await popup.locator('#status').textContent()) ?? '';
      await popup.close();
      return said;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (popup.isClosed()) return 'closed';
  const last = popup.url();
  await popup.close();
  return `still open at ${last}`;
};

/**
 * A login by redirect, in a tab of its own: open the app page `startUrl` (it sends the tab to the
 * authorization server at `issuer`), sign in and allow, and resolve with what the app page says
 * once the redirect page has brought the tab back to it.
 */
export const oauthRedirectLogin: BrowserCommand<[startUrl: string, issuer: string]> = async ({ context }, startUrl, issuer) => {
  const tab = await context.newPage();
  try {
    await tab.goto(startUrl);
    await tab.waitForURL((url) => url.href.startsWith(issuer));
    const deadline = Date.now() + PATIENCE_MS;
    while (Date.now() < deadline) {
      if (tab.url().startsWith(startUrl.split('?')[0] ?? startUrl)) {
        const said =
          (await tab
            .locator('#status')
            .textContent()
            .catch(() => '')) ?? '';
        if (said !== 'Starting…' && said !== '') return said;
      } else if (tab.url().startsWith(issuer)) {
        const login = tab.locator('input[name="login"]');
        const consent = tab.locator('button[type="submit"]', { hasText: 'Continue' });
        if (await login.isVisible().catch(() => false)) {
          await login.fill('alice');
          await tab.locator('input[name="password"]').fill('secret');
          await tab.locator('button[type="submit"]').click();
        } else if (await consent.isVisible().catch(() => false)) await consent.click();
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return `still at ${tab.url()}`;
  } finally {
    await tab.close();
  }
};

declare module 'vitest/browser' {
  interface BrowserCommands {
    oauthConsent(issuer: string, action: ConsentAction): Promise<string>;
    oauthRedirectLogin(startUrl: string, issuer: string): Promise<string>;
  }
}
