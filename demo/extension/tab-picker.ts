// The panel with no tab to work on (opened as a page of its own, in a window of extension pages):
// it says so, keeps its walkthrough and questions from running against no page, and offers the
// open tabs; picking one reopens the panel pinned to it (`?tab=<id>`).
import { pickableTabs, type TabInfo } from './target-tab.js';

/** A tab's name as the browser tells it: its title, else its address, else its number. */
const nameOf = (tab: TabInfo) => tab.title || tab.url || `Tab ${tab.id}`;

/** Show `section` with the open tabs to pick from; resolves once it is drawn. */
export async function offerTabs(section: HTMLElement): Promise<void> {
  const heading = document.createElement('p');
  heading.textContent = 'No tab to work on: this panel was opened without a page beside it. Pick the tab it should work on:';
  const list = document.createElement('ul');
  const open = await pickableTabs().catch(() => []);
  for (const tab of open) {
    const pick = document.createElement('button');
    pick.type = 'button';
    pick.className = 'ghost pick-tab';
    pick.dataset.tabId = String(tab.id);
    pick.textContent = nameOf(tab);
    pick.addEventListener('click', () => {
      const url = new URL(location.href);
      url.searchParams.set('tab', String(tab.id));
      location.assign(url.href);
    });
    const item = document.createElement('li');
    item.append(pick);
    list.append(item);
  }
  const none = document.createElement('p');
  none.textContent = 'No other tab is open: open a web page, then reopen the panel from the toolbar button beside it.';
  section.replaceChildren(heading, open.length > 0 ? list : none);
  section.hidden = false;
}
