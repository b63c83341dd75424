/** Gives a byte array's memory back at once, for arrays the server is done with (#36). */

/**
 * Gives an array's memory back now instead of at V8's next garbage collection, which an idle server may not run
 * for minutes: a document's bytes and the frames that carried it (megabytes, each a mapping of its own) kept a
 * server's resident memory up after its first search (#36). Detaches the whole ArrayBuffer: only for arrays that
 * own theirs and that nothing reads again. An array that cannot be detached (a wasm memory's view) is left alone.
 */
export function release(bytes: Uint8Array): void {
  try {
    (bytes.buffer as ArrayBuffer).transfer?.(0);
  } catch {
    // not detachable
  }
}
