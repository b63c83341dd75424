/**
 * The host side of PDFium's WebAssembly module (`@embedpdf/pdfium`'s pdfium.wasm): the 37 functions it imports and
 * the exports the engine calls, in place of the package's emscripten glue. The glue, built for browsers and Node.js,
 * cost each extractor ~35–45 ms of CPU before the first page (#36): parsing its 300 KB, loading Node's `module`,
 * `fs`, `path` and `url` (Deno has a `process` global, so the glue takes itself for Node.js), an in-memory file
 * system, and ~600 call wrappers. Nothing here opens a file: PDFium reads documents from memory, so every file
 * system call answers "no such file" or "bad descriptor", as the glue's empty in-memory file system did.
 */

/** The exports of pdfium.wasm the engine and the page renderer call (pointers are wasm heap offsets). */
export interface PdfiumExports {
  readonly memory: WebAssembly.Memory;
  malloc(size: number): number;
  free(at: number): void;
  PDFiumExt_Init(): void;
  /** `password`: a pointer to a NUL-terminated string, or 0 for none. */
  FPDF_LoadMemDocument(at: number, size: number, password: number): number;
  FPDF_GetLastError(): number;
  FPDF_GetPageCount(doc: number): number;
  FPDF_LoadPage(doc: number, index: number): number;
  FPDF_ClosePage(page: number): void;
  FPDF_CloseDocument(doc: number): void;
  FPDF_GetPageWidthF(page: number): number;
  FPDF_GetPageHeightF(page: number): number;
  FPDFText_LoadPage(page: number): number;
  FPDFText_CountChars(text: number): number;
  FPDFText_GetText(text: number, start: number, count: number, buffer: number): number;
  FPDFText_ClosePage(text: number): void;
  // Per-character calls, for the few characters accents.ts asks about.
  FPDFText_GetCharIndexFromTextIndex(text: number, index: number): number;
  FPDFText_GetTextIndexFromCharIndex(text: number, index: number): number;
  FPDFText_GetUnicode(text: number, index: number): number;
  FPDFText_GetFontSize(text: number, index: number): number;
  /** Writes four doubles at the four pointers; 0 when the character has no box. */
  FPDFText_GetCharBox(text: number, index: number, left: number, right: number, bottom: number, top: number): number;
  FPDFText_GetCharIndexAtPos(text: number, x: number, y: number, xTolerance: number, yTolerance: number): number;
  FPDFBitmap_Create(width: number, height: number, alpha: number): number;
  FPDFBitmap_FillRect(bitmap: number, left: number, top: number, width: number, height: number, color: number): number;
  FPDF_RenderPageBitmap(
    bitmap: number,
    page: number,
    x: number,
    y: number,
    width: number,
    height: number,
    rotate: number,
    flags: number,
  ): void;
  FPDFBitmap_GetStride(bitmap: number): number;
  FPDFBitmap_GetBuffer(bitmap: number): number;
  FPDFBitmap_Destroy(bitmap: number): void;
}

/** An instance of PDFium: its exports, and its memory seen as bytes and as UTF-16 text. */
export interface Pdfium extends PdfiumExports {
  /** The whole wasm memory as bytes (a fresh view after the memory has grown). */
  heap(): Uint8Array;
  /** The UTF-16LE text of `bytes` bytes at `at`, up to its first NUL, as the glue's UTF16ToString read it. */
  utf16(at: number, bytes: number): string;
}

export interface HostHooks {
  /** PDFium asked for more memory than the module's maximum allows (its allocation then fails). */
  onGrowRefused(): void;
  /** A line PDFium wrote to stdout or stderr, or an abort's message. */
  print(text: string): void;
}

/** The exports used here only, to run the module (emscripten's runtime functions). */
interface RuntimeExports {
  __wasm_call_ctors(): void;
  __indirect_function_table: WebAssembly.Table;
  emscripten_stack_init(): void;
  emscripten_stack_get_current(): number;
  _emscripten_stack_restore(at: number): void;
  setThrew(threw: number, value: number): void;
}

/** WASI / musl errno values (emscripten's numbering). */
const EBADF = 8;
const ENOENT = 44;

/**
 * Instantiates `module` (pdfium.wasm, compiled) and runs its static constructors. PDFiumExt_Init, which
 * initialises the library, is the caller's to call.
 */
export function instantiatePdfium(module: WebAssembly.Module, hooks: HostHooks): Pdfium {
  let u8: Uint8Array = new Uint8Array(0);
  const heap = (): Uint8Array => u8.byteLength ? u8 : (u8 = new Uint8Array(exports.memory.buffer));
  const view = (): DataView => new DataView(exports.memory.buffer);
  const utf8 = (at: number): string => {
    const bytes = heap();
    let end = at;
    while (bytes[end]) end++;
    return new TextDecoder().decode(bytes.subarray(at, end));
  };

  let line = "";
  const write = (text: string) => {
    line += text;
    for (let nl = line.indexOf("\n"); nl >= 0; nl = line.indexOf("\n")) {
      hooks.print(line.slice(0, nl));
      line = line.slice(nl + 1);
    }
  };
  const abort = (what: string): never => {
    const message = `Aborted(${what})`;
    hooks.print(message);
    // A trap, not a JS error: PDFium's C++ must not run destructors on it (as emscripten's abort()).
    throw new WebAssembly.RuntimeError(message);
  };

  /** The function table's entries met so far (Table.get is slow; the table never changes). */
  const table: ((...args: number[]) => number)[] = [];
  /** A call through the function table that a longjmp may leave (emscripten's invoke_* for setjmp). */
  const invoke = (index: number, ...args: number[]): number | undefined => {
    const stack = exports.emscripten_stack_get_current();
    try {
      return (table[index] ??= exports.__indirect_function_table.get(index) as (...args: number[]) => number)(...args);
    } catch (error) {
      exports._emscripten_stack_restore(stack);
      // A longjmp is thrown as a number (Infinity); anything else is a real failure.
      if (error !== (error as number) + 0) throw error;
      exports.setThrew(1, 0);
      return undefined;
    }
  };

  const growMemory = (requested: number): boolean => {
    const old = heap().byteLength;
    requested >>>= 0;
    if (requested > 2 ** 31) {
      hooks.onGrowRefused();
      return false;
    }
    // emscripten's policy: grow by 20% at least (at most by 96 MiB more than asked), cutting back on failure.
    for (let cut = 1; cut <= 4; cut *= 2) {
      const over = Math.min(old * (1 + 0.2 / cut), requested + 96 * 1024 * 1024);
      const size = Math.min(2 ** 31, Math.ceil(Math.max(requested, over) / 65536) * 65536);
      try {
        exports.memory.grow(Math.ceil((size - old) / 65536));
        u8 = new Uint8Array(0);
        return true;
      } catch {
        // over the module's maximum: try a smaller step
      }
    }
    hooks.onGrowRefused();
    return false;
  };

  const noFile = () => -ENOENT;
  /** A `struct tm` at `at` for `time` (seconds), in UTC: the extractor has no time zone. */
  const tm = (at: number, low: number, high: number, local: boolean) => {
    const date = new Date((high * 2 ** 32 + (low >>> 0)) * 1000);
    const v = view();
    const fields = [
      date.getUTCSeconds(),
      date.getUTCMinutes(),
      date.getUTCHours(),
      date.getUTCDate(),
      date.getUTCMonth(),
      date.getUTCFullYear() - 1900,
      date.getUTCDay(),
      Math.floor((date.getTime() - Date.UTC(date.getUTCFullYear(), 0, 1)) / 86_400_000),
    ];
    fields.forEach((value, i) => v.setInt32(at + 4 * i, value, true));
    if (local) [32, 36].forEach((offset) => v.setInt32(at + offset, 0, true)); // no daylight saving, UTC+0
  };

  const env: Record<string, (...args: number[]) => unknown> = {
    invoke_v: invoke,
    invoke_vi: invoke,
    invoke_vii: invoke,
    invoke_viii: invoke,
    invoke_viiii: invoke,
    invoke_viiiiiiiii: invoke,
    invoke_ii: invoke,
    invoke_iii: invoke,
    invoke_iiii: invoke,
    invoke_iiiii: invoke,
    _emscripten_throw_longjmp: () => {
      throw Infinity;
    },
    _abort_js: () => abort("native code called abort()"),
    __assert_fail: (condition, file, line, func) =>
      abort(`Assertion failed: ${utf8(condition)}, at: ${[file ? utf8(file) : "unknown", line, utf8(func)]}`),
    _emscripten_memcpy_js: (dest, src, count) => heap().copyWithin(dest, src, src + count),
    emscripten_resize_heap: growMemory,
    emscripten_date_now: () => Date.now(),
    // No time zone: UTC, whatever the host's (nothing PDFium does here depends on it).
    _tzset_js: (timezone, daylight, std, dst) => {
      const v = view();
      v.setUint32(timezone, 0, true);
      v.setInt32(daylight, 0, true);
      for (const at of [std, dst]) heap().set([85, 84, 67, 0], at); // "UTC"
    },
    _localtime_js: (low, high, at) => tm(at, low, high, true),
    _gmtime_js: (low, high, at) => tm(at, low, high, false),
    __syscall_openat: noFile,
    __syscall_stat64: noFile,
    __syscall_lstat64: noFile,
    __syscall_newfstatat: noFile,
    __syscall_getdents64: () => -EBADF,
    __syscall_unlinkat: noFile,
    __syscall_rmdir: noFile,
    __syscall_fcntl64: () => -EBADF,
    __syscall_ioctl: () => -EBADF,
    __syscall_fstat64: () => -EBADF,
    __syscall_ftruncate64: () => -EBADF,
  };
  const wasi: Record<string, (...args: number[]) => unknown> = {
    fd_write: (fd, iov, count, written) => {
      if (fd !== 1 && fd !== 2) return EBADF;
      const v = view();
      let total = 0;
      for (let i = 0; i < count; i++) {
        const at = v.getUint32(iov + 8 * i, true);
        const length = v.getUint32(iov + 8 * i + 4, true);
        write(new TextDecoder().decode(heap().subarray(at, at + length)));
        total += length;
      }
      v.setUint32(written, total, true);
      return 0;
    },
    fd_read: () => EBADF,
    fd_seek: () => EBADF,
    fd_close: () => EBADF,
    fd_sync: () => EBADF,
    environ_sizes_get: (count, size) => {
      const v = view();
      v.setUint32(count, 0, true);
      v.setUint32(size, 0, true);
      return 0;
    },
    environ_get: () => 0,
  };

  const instance = new WebAssembly.Instance(module, { env, wasi_snapshot_preview1: wasi });
  // The functions above reach the exports through this constant; the module has no start function, so none of
  // them runs before it is set.
  const exports = instance.exports as unknown as PdfiumExports & RuntimeExports;
  exports.emscripten_stack_init();
  exports.__wasm_call_ctors();

  return Object.assign(Object.create(exports) as PdfiumExports, {
    heap,
    utf16(at: number, bytes: number): string {
      const units = new Uint16Array(exports.memory.buffer, at, bytes >> 1);
      const end = units.indexOf(0);
      const text = end < 0 ? units : units.subarray(0, end);
      // As the glue: TextDecoder for more than 16 units (lone surrogates become U+FFFD), else unit by unit.
      return text.length > 16 ? new TextDecoder("utf-16le").decode(text) : String.fromCharCode(...text);
    },
  });
}
