// index.html: the app with the default validation ('auto').
import { startApp } from './app.js';

startApp('auto');
