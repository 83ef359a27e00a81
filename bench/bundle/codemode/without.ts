// bundle-codemode's check: every export of `ambi-web` kept (the namespace is read), no Code Mode:
// nothing of QuickJS may be in this page or in the workers it starts.
import * as ambi from '../../../src/index.js';

document.body.dataset.exports = String(Object.keys(ambi).length);
