// A TypeDoc plugin: icons refer to the sprite inside the page (`#icon-x`, which TypeDoc's
// assets/icons.js adds to every page), never to the file `assets/icons.svg#icon-x`. Opened from
// file://, Chromium refuses a `<use>` of another file (file: URLs are unique origins) and logs an
// error per icon before icons.js rewrites them; in-page references load from file:// and http alike.
import { PageEvent } from 'typedoc';

const ICON_HREF = /(<use\s+href=")[^"#]*assets\/icons\.svg(#icon-[^"]*")/g;

/** TypeDoc calls this when it loads the plugin (typedoc.json `plugin`). */
export function load(app) {
  app.renderer.on(PageEvent.END, (page) => {
    if (page.contents) page.contents = page.contents.replace(ICON_HREF, '$1$2');
  });
}
