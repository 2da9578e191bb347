/** A resource an operator put under another parent: the ids above it before and after, parent first. */
export interface FgaResourceMove {
  readonly resourceId: string;
  readonly previousAncestorIds: readonly string[];
  readonly ancestorIds: readonly string[];
}

/** What a source of managed grants implements to follow moves that may take its grants out of scope. */
export interface FgaResourceMoveSubscriber {
  resourceMoved(move: FgaResourceMove): Promise<void>;
}

/**
 * The subscribers of resource moves. Each is awaited in turn after the move is written and before the
 * answer (as the SCIM directory's are), so the grants a move takes out of a source's boundary are
 * revoked by the same request; a failing subscriber fails it (a 5xx the operator sees).
 */
export class FgaResourceMoves {
  readonly #subscribers: FgaResourceMoveSubscriber[] = [];

  subscribe(subscriber: FgaResourceMoveSubscriber): void {
    this.#subscribers.push(subscriber);
  }

  async moved(move: FgaResourceMove): Promise<void> {
    for (const subscriber of this.#subscribers) await subscriber.resourceMoved(move);
  }
}
