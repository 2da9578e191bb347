/**
 * The operations of a capability object: its public methods. Private fields (`#…`) are not keys, so a
 * facade typed from these never shows a group's dependencies.
 */
export type Operations<T> = { [K in keyof T]: T[K] };

/**
 * One facade object holding the methods of every group, each bound to its group: a caller may take an
 * operation off the facade (`const { createUserAsync } = svc.admin`) and call it without `this`. The
 * facade carries only those functions; the groups' private state stays in the groups. A name two groups
 * both define is a wiring fault, refused here rather than letting one silently replace the other.
 */
export function composeOperations<T>(groups: object): T {
  const facade: Record<string, unknown> = {};
  for (const [groupName, group] of Object.entries(groups) as [string, object][]) {
    const prototype = Object.getPrototypeOf(group) as object;
    for (const name of Object.getOwnPropertyNames(prototype)) {
      const member: unknown = Reflect.get(group, name);
      if (name === 'constructor' || typeof member !== 'function') continue;
      if (name in facade) throw new Error(`The facade group ${groupName} defines ${name} a second time.`);
      facade[name] = member.bind(group);
    }
  }
  // The keys are exactly the groups' public methods, which is what T is made of (see the callers' types).
  return facade as T;
}
