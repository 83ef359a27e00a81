// no-eval.html: the app with `validation: 'no-eval'`, which a strict CSP allows.
import { startApp } from './app.js';

startApp('no-eval');
