/** A parse worker that says it is ready, then dies with an uncaught error on its first job. */
const scope = globalThis as unknown as { onmessage: (() => void) | null; postMessage(message: unknown): void };
scope.onmessage = () => {
  setTimeout(() => {
    throw new Error("worker died mid-parse");
  }, 0);
};
scope.postMessage({ ready: true });
