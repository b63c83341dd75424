/** An in-memory BudgetStore with KV's semantics (versioned records, check-and-commit), for injected-clock tests. */
import type { BudgetRecord, BudgetStore, Versioned } from "../../src/upstream/shared_budget.ts";

export class MemoryBudgetStore implements BudgetStore {
  readonly #data = new Map<string, { record: BudgetRecord; version: string }>();
  #version = 0;
  /** When set, every operation throws it (a lost store). */
  failure?: Error;
  /** Commits that lost a race (another instance committed in between). */
  conflicts = 0;

  async read(queue: string): Promise<Versioned> {
    await Promise.resolve();
    if (this.failure) throw this.failure;
    const entry = this.#data.get(queue);
    return { record: entry ? structuredClone(entry.record) : undefined, version: entry?.version ?? null };
  }

  async commit(queue: string, version: string | null, record: BudgetRecord): Promise<boolean> {
    await Promise.resolve();
    if (this.failure) throw this.failure;
    if ((this.#data.get(queue)?.version ?? null) !== version) {
      this.conflicts++;
      return false;
    }
    this.#data.set(queue, { record: structuredClone(record), version: String(++this.#version) });
    return true;
  }

  /** Writes a record as any process could (a poisoned, stale or malformed one). */
  poke(queue: string, record: unknown): void {
    this.#data.set(queue, { record: record as BudgetRecord, version: String(++this.#version) });
  }

  peek(queue: string): BudgetRecord | undefined {
    return this.#data.get(queue)?.record;
  }
}
