/**
 * Reads of the model's version shared by the checks that wait at the same time. A check must see
 * every write committed before it started, so it never takes a read already under way (that read may
 * have been answered before the write committed): it takes the next read, which starts once the one
 * under way ends, together with every check that arrives meanwhile. On PostgreSQL that is one round
 * trip for a whole batch of checks instead of one each; on SQLite the read ends on the tick it starts
 * (docs/decisions/fga-check-cache.md).
 */
export class ModelVersion {
  readonly #read: () => Promise<number>;
  #underWay: Promise<number> | undefined;
  #next: Promise<number> | undefined;

  constructor(read: () => Promise<number>) {
    this.#read = read;
  }

  /** The version as it is at some moment after this call. */
  current(): Promise<number> {
    const underWay = this.#underWay;
    if (underWay === undefined) return this.#start();
    this.#next ??= underWay.then(
      () => this.#startNext(),
      () => this.#startNext(),
    );
    return this.#next;
  }

  #startNext(): Promise<number> {
    this.#next = undefined;
    return this.#start();
  }

  #start(): Promise<number> {
    const reading = this.#read().finally(() => {
      if (this.#underWay === reading) this.#underWay = undefined;
    });
    this.#underWay = reading;
    return reading;
  }
}
