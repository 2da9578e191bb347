import type { Db } from '../storage/database.js';
import type { FgaResourcesTable } from '../storage/schema.js';

/** A tree seeded in bulk: its root, each level's ids, and the leaves. */
export interface SeededTree {
  readonly rootId: string;
  readonly levels: readonly (readonly string[])[];
  readonly leaves: readonly string[];
}

/**
 * Inserts a tree of resources of type `typeId` under one root in a few multi-row statements (creating
 * ten thousand through the API would take most of a test's time): `fanout[i]` children under every
 * resource of level i. Bumps the model's version as every write of the model does.
 */
export async function seedFgaTree(
  db: Db,
  options: {
    readonly typeId: string;
    readonly fanout: readonly number[];
    readonly prefix: string;
    readonly at: number;
  },
): Promise<SeededTree> {
  const rows: FgaResourcesTable[] = [];
  const add = (id: string, parentId: string | null) =>
    rows.push({
      id,
      typeId: options.typeId,
      parentId,
      name: id,
      createdAt: options.at,
      updatedAt: options.at,
    });
  const rootId = `frs_${options.prefix}root`;
  add(rootId, null);
  const levels: string[][] = [[rootId]];
  for (const [depth, children] of options.fanout.entries()) {
    const level: string[] = [];
    for (const parentId of levels[depth] ?? []) {
      for (let i = 0; i < children; i += 1) {
        const id = `${parentId}_${i}`;
        add(id, parentId);
        level.push(id);
      }
    }
    levels.push(level);
  }
  await db.transaction().execute(async (tx) => {
    await tx
      .updateTable('fgaState')
      .set((eb) => ({ version: eb('version', '+', 1) }))
      .where('id', '=', 1)
      .execute();
    // Parents first: each chunk holds whole levels' prefixes, so the foreign keys hold row by row.
    for (let i = 0; i < rows.length; i += 1000) {
      await tx
        .insertInto('fgaResources')
        .values(rows.slice(i, i + 1000))
        .execute();
    }
  });
  return { rootId, levels, leaves: levels.at(-1) ?? [] };
}
