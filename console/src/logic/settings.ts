// Saving the shop's settings: only the sections that changed since the form was loaded are sent, so an owner
// renaming the bot does not put back the marketing hours a colleague changed a minute ago in another tab.

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** The top-level sections of `now` that differ from `before`. When nothing changed, the shop's name alone, so
 * that saving is still a save (the API refuses an empty change). */
export function changedSections(before: Record<string, unknown>, now: Record<string, unknown>): Record<string, unknown> {
  const changed = Object.fromEntries(Object.entries(now).filter(([key, value]) => !same(before[key], value)));
  return Object.keys(changed).length > 0 ? changed : { name: now.name };
}
