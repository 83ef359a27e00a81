/** Call `callback` as a listener is called: a throw is reported as uncaught, without stopping the caller. */
export function callReporting(callback: () => void): void {
  try {
    callback();
  } catch (error) {
    queueMicrotask(() => {
      throw error;
    });
  }
}
