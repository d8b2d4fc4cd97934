/**
 * A `like` pattern for "contains", lower-cased, with a person's own `%`, `_` and `\` taken literally.
 * Compare it with `lower(column) like ${pattern}` (or `ilike`).
 */
export const containsPattern = (text: string) =>
  `%${text.toLowerCase().replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
