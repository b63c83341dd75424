/**
 * Typed keys for per-runtime singletons. A key fixes the type of what it names, so two call sites can
 * never read one singleton as two different types, and a typo is a compile error rather than a second
 * singleton.
 */

/** Names one singleton of type `T`; compare by identity, so declare each key once, at module level. */
export class SharedKey<T> {
  /** Carries `T` for type inference only; never set. */
  declare readonly type?: T;
  /** A key named `name` (shown in errors and logs; identity, not the name, tells keys apart). */
  constructor(
    /** Shown in errors and logs. */
    readonly name: string,
  ) {}
}

/**
 * @example
 * const TEXT_CACHE = sharedKey<TextCache>("papers:text-cache");
 * const cache = ctx.shared(TEXT_CACHE, () => new TextCache(ctx.clock));
 */
export function sharedKey<T>(name: string): SharedKey<T> {
  return new SharedKey<T>(name);
}

/** A key and the value a runtime starts with for it (see `provide`). */
export type Provided = readonly [key: SharedKey<unknown>, value: unknown];

/**
 * A singleton supplied when the runtime is built, instead of the default its user would make: how tests
 * and embedders inject a toolset's dependencies.
 *
 * @example
 * createRuntime({ provide: [provide(PAPERS_DEPS, { resolveDns: fakeDns })] });
 */
export function provide<T>(key: SharedKey<T>, value: T): Provided {
  return [key, value];
}

/** Per-runtime singletons: built on first use, shared by every session of one runtime, never by two runtimes. */
export interface SharedStore {
  /** The runtime's singleton for `key`, made with `make` on first use. */
  shared<T>(key: SharedKey<T>, make: () => NoInfer<T>): T;
  /** @deprecated A string key is untyped; declare a {@link SharedKey} instead. */
  shared<T>(key: string, make: () => T): T;
}
