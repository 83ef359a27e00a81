// The raw baseline's worker (echo.ts).
import { serveEcho } from './echo.js';

serveEcho();
