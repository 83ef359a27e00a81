// A control for the violation recorder: a worker that does attempt eval, which the extension's CSP refuses.
import { reportViolations } from '../csp/report-violations.js';

reportViolations('eval probe');
try {
  new Function('return 1')();
  postMessage('eval ran');
} catch (error) {
  postMessage(String(error));
}
