/**
 * The text engine that extractors run, by name and version: part of every disk cache key, so text made
 * by another engine or version is never served as this one's (tests/sources/pdf/disk_cache_test.ts
 * checks the version against deno.json's import map).
 */
export const PDF_ENGINE = { name: "pdfjs-dist", version: "6.5.438" } as const;
