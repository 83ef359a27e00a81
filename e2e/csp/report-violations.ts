// For the test's runner worker: records every CSP violation the worker sees and hands the
// list to the page on request (over a BroadcastChannel, which leaves Comlink's port alone).
export interface Violation {
  realm: string;
  directive: string;
  blockedURI: string;
}

/** Start recording; call before anything in the worker could evaluate code. */
export function reportViolations(realm: string): void {
  const seen: Violation[] = [];
  self.addEventListener('securitypolicyviolation', (event) => {
    seen.push({ realm, directive: event.effectiveDirective, blockedURI: event.blockedURI });
  });
  const channel = new BroadcastChannel('csp-test');
  channel.addEventListener('message', (event) => {
    if (event.data === 'report') channel.postMessage({ type: 'violations', violations: seen });
  });
}
