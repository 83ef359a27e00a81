// The content script (declared in manifest.json): the page's tools, served to the side panel.
import { exposeTabTools } from 'ambi-web/extension';
import { click, fillField, findLinks, readPage } from './page-tools.js';

exposeTabTools([readPage, findLinks, fillField, click]);
