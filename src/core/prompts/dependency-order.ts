// The order in which prompts that reference each other can be created: the referenced first.
// Shared by the push and copy planners.

/**
 * `names` in an order where each comes after the names it depends on (ties by name), and the
 * names that are part of a dependency cycle. Dependencies on names outside `names`, and on
 * itself, are ignored.
 */
export function dependencyOrder(names: Iterable<string>, dependsOn: (name: string) => readonly string[]): { order: string[]; inCycle: Set<string> } {
  const all = new Set(names);
  const order: string[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const inCycle = new Set<string>();
  const visit = (name: string, trail: string[]): void => {
    const seen = state.get(name);
    if (seen === 'done') return;
    if (seen === 'visiting') {
      for (const member of trail.slice(trail.indexOf(name))) inCycle.add(member);
      return;
    }
    state.set(name, 'visiting');
    const children = [...new Set(dependsOn(name))].filter((child) => all.has(child) && child !== name).sort();
    for (const child of children) visit(child, [...trail, name]);
    state.set(name, 'done');
    order.push(name);
  };
  for (const name of [...all].sort()) visit(name, []);
  return { order, inCycle };
}
