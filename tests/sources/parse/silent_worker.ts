/** A parse worker that says it is ready and never answers (a parse that runs on and on). */
const scope = globalThis as unknown as { onmessage: (() => void) | null; postMessage(message: unknown): void };
scope.onmessage = () => {};
scope.postMessage({ ready: true });
