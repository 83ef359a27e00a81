// The harness needs no service worker work; Chrome wants one file to start.
export {};
